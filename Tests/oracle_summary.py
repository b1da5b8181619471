#!/usr/bin/env python3
"""Names the oracles a test run skipped (tests throw "oracle missing: ..." where ffmpeg, a font or Pillow is
absent), then repeats XCTest's last "Executed N tests" line so the run still ends on it.

Usage: oracle_summary.py TEST_OUTPUT_FILE
"""
import collections
import re
import sys


def main(path):
    skipped = collections.Counter()
    executed = None
    with open(path, encoding="utf-8", errors="replace") as output:
        for line in output:
            match = re.search(r"Test skipped - oracle missing: (.*)$", line)
            if match:
                skipped[match.group(1).strip()] += 1
            if re.match(r"\s*Executed \d+ tests?", line):
                executed = line.rstrip("\n")
    if skipped:
        named = "; ".join(f"{what} ({count} test{'s' if count > 1 else ''})" for what, count in sorted(skipped.items()))
        print(f"oracles skipped: {sum(skipped.values())} tests did not check against their oracle: {named}")
    else:
        print("oracles skipped: none")
    if executed:
        print(executed)


if __name__ == "__main__":
    main(sys.argv[1])
