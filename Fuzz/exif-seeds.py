"""Seeds for FuzzEXIF: the EXIF blocks inside JPEG APP1 and PNG eXIf chunks of the given folders, each
written to OUT as the bytes EXIFReader receives. Usage: exif-seeds.py OUT FOLDER..."""
import os
import sys

out, folders = sys.argv[1], sys.argv[2:]
os.makedirs(out, exist_ok=True)
count = 0
for folder in folders:
    for root, _, files in os.walk(folder):
        for name in files:
            data = open(os.path.join(root, name), "rb").read()
            at = data.find(b"Exif\0\0")
            if at >= 4 and data[at - 4:at - 2] == b"\xff\xe1":  # JPEG APP1: the length precedes "Exif"
                block = data[at + 6:at - 2 + int.from_bytes(data[at - 2:at], "big")]
            elif (at := data.find(b"eXIf")) >= 4:  # PNG chunk: the length precedes the type
                block = data[at + 4:at + 4 + int.from_bytes(data[at - 4:at], "big")]
            else:
                continue
            count += 1
            open(os.path.join(out, f"{count:04}-{name}.exif"), "wb").write(block)
print(f"exif-seeds: {count} blocks in {out}")
