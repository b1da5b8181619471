"""Structural mutations of the real animated scenes (fixtures/*.json) for fuzz_cli.py, as Tools/scenefuzz's
FixtureMutator.swift does in process: timing curves and springs of every spelling, keyframes (many, unsorted, out of
range), repeat counts, autoreverses, delays and durations, text (long runs of soft hyphens and zero-width spaces,
combining marks, bidi mixes, huge sizes, labels under near-singular transforms), emitters at and past their caps (and
hundreds of them on a tiny canvas), 3D transforms, curls and `transition` layers of every style.

Every choice comes from the Random it is given, so a case is the same from the same (seed, index).
"""

import copy
import json
import os

INF = float("inf")
NAN = float("nan")

# Numbers the reader takes somewhere and refuses elsewhere; json.dumps writes inf and nan as Infinity and NaN,
# which the parser refuses (a syntax error, as the "1e400" of a hand-written file).
HOSTILE_NUMBERS = [0, -0.0, 1e-9, 1e-300, 5e-324, 1e300, -1e300, 1e308, 1e6, 1000000.0001, -1e6, 3600, 3599.999,
                   3600.0001, 4294967295, 4294967296, 9007199254740993, 0.5, 2, 72, 1e16, 16384, 16384.0001, 10000,
                   10001]

CURVES = [
    "linear", "easeIn", "easeOut", "easeInOut", "ease-in", "ease-out", "ease-in-out", "ease", "default", "step-start",
    "step-end", "cubic-bezier(0.57, -0.4, 0.96, 0.87)", "cubic-bezier(0, 1e300, 1, -1e300)", "cubic-bezier(1, 0, 0, 1)",
    "cubic-bezier(0,0,0,0)", "cubic-bezier(1,1,1,1)", "cubic-bezier(0.5, 5e-324, 0.5, 1e-300)",
    "cubic-bezier(1.0000001, 0, 0, 1)", "cubic-bezier(0.1, 1e6, 0.9, -1e6)", "cubic-bezier(nan, 0, 1, 1)",
    "cubic-bezier(0.99999999, 1e9, 0.00000001, -1e9)", "steps(1)", "steps(0)", "steps(1, jump-none)",
    "steps(2, jump-none)", "steps(1000000000, jump-both)", "steps(4294967296)", "steps(3, start)", "steps(2.5)",
    "spring", "smooth", "snappy", "bouncy", "interactiveSpring", "spring(dampingRatio: 0.5)", "spring(dampingRatio: 0)",
    "spring(damping: 0.2, velocity: 0.3, duration: 0.8)", "spring(damping: 0, duration: 1e-9)",
    "spring(damping: 1, velocity: 1e300, duration: 3600)", "spring(damping: 0.01, duration: 3600)",
    "spring(mass: 1, stiffness: 100, damping: 10)", "spring(mass: 1e-300, stiffness: 1e300, damping: 0)",
    "spring(mass: 1e8, stiffness: 1e-8, damping: 0)", "spring(mass: 1, stiffness: 1, damping: 1e-9)",
    "spring(stiffness: 0)", "spring(mass: 0)", "spring(damping: -1)",
    "spring(mass: 1, stiffness: 100, damping: 10, velocity: 1e300)", "spring(mass: 1e6, stiffness: 1e-6, damping: 1e-6)",
    "spring(response: 0.5, dampingFraction: 0.825)", "spring(response: 1e-300, dampingFraction: 1e6)",
    "spring(response: 3600, dampingFraction: 0)", "spring(response: 1e6, dampingFraction: 1e-9)",
    "interpolatingSpring(mass: 1, stiffness: 1e-6, damping: 0, velocity: 0)",
    "interpolatingSpring(stiffness: 1e300, damping: 1e-300)", "spring(duration: 0.5, bounce: 0.3)",
    "spring(duration: 1e-9, bounce: -1)", "spring(duration: 3600, bounce: 0.999999)", "spring(mass: nan)",
    "spring(response: inf)", "spring(damping: 1e400)", "spring(", "wobble",
]

SINGULAR_TRANSFORMS = [
    "skewX(89.999deg)", "skewY(-89.999deg)", "scale(100000, 0.00001)", "scale(0.00001, 100000)", "scale(1, -0.000001)",
    "matrix(1,1,1,1.000001,0,0)", "rotate(90deg) scale(100000, 0.00001)", "scale(1e-7)", "scale(0)",
    "skewX(89.9999999deg) scale(1e5)", "translate(1e6, -1e6) scale(1e-6)", "scale(-1e6, 1e-6)",
]

TRANSFORMS_3D = [
    [{"perspective": 1e-6}, {"rotate": 90, "axis": [0, 1, 0]}], [{"perspective": 1e-300}],
    [{"perspective": 1}, {"rotate": 89.99999, "axis": [1, 0, 0]}], [{"rotate": 90, "axis": [0, 1, 0]}],
    [{"rotate": 270, "axis": [1, 0, 0]}], [{"perspective": 500}, {"translate": [0, 0, 499.9999]}],
    [{"perspective": 500}, {"translate": [0, 0, 1000000]}], [{"scale": [100000, 0.00001]}], [{"scale": [0, 0, 0]}],
    [{"scale": -1000000}], [{"matrix": [0] * 16}],
    [{"matrix": [1e6, 0, 0, 1e6, 0, -1e6, 0, 0, 0, 0, 1, 0, 1e6, 1e6, 0, 1e-6]}],
    [{"matrix": [1, 0, 0, 0.001, 0, 1, 0, 0.001, 0, 0, 1, 0, 0, 0, 0, 1e-9]}],
    [{"rotate": 1000000, "axis": [1e-300, 0, 0]}], [{"rotate": 45, "axis": [0, 0, 0]}],
    [{"perspective": 1200}, {"rotate": 180, "axis": [0, 1, 0]}],
    [{"perspective": 1200}, {"rotate": -90.000001, "axis": [1, 0, 0]}, {"translate": [0, 0, -1000000]}],
]

TRANSITION_STYLES = ["crossDissolve", "cube", "fadeAndBounce", "grow", "shrink", "coverVertical", "flip",
                     "flipHorizontal", "cube3D", "curlUp", "curlDown", "partialCurl", "swiftUI"]

PROPERTIES = {"image": ["opacity", "transform", "rotation", "frame", "cornerRadius"],
              "color": ["opacity", "color", "frame", "transform"], "shape": ["opacity", "color", "cornerRadius"],
              "backdrop": ["effect", "blur", "dim", "frame", "opacity"], "group": ["opacity", "transform", "rotation"],
              "text": ["opacity", "color", "transform", "rotation", "frame"], "curled": ["curl", "opacity"],
              "emitter": ["opacity", "transform"], "transition": ["opacity", "transform", "frame"]}


def load_fixtures(directory):
    """The animated fixtures (every fixtures/*.json with layers), sorted by name, and the images they name."""
    scenes = []
    for name in sorted(os.listdir(directory)):
        if name.endswith(".json"):
            with open(os.path.join(directory, name), encoding="utf-8") as file:
                scene = json.load(file)
            if isinstance(scene, dict) and "layers" in scene:
                scenes.append((name, scene))
    images = sorted(name for name in os.listdir(directory) if name.endswith((".jpg", ".png")))
    return scenes, images


class FixtureMutator:
    def __init__(self, r):
        self.r = r

    def number(self):
        return self.r.choice(HOSTILE_NUMBERS) if self.r.random() < 0.93 else self.r.choice([INF, NAN, -INF])

    def curve(self):
        r = self.r
        kind = r.random()
        if kind < 0.15:
            return f"spring(mass: {self.number()}, stiffness: {self.number()}, damping: {self.number()})"
        if kind < 0.25:
            return f"spring(response: {self.number()}, dampingFraction: {self.number()})"
        if kind < 0.35:
            return r.choice([f"spring(damping: {self.number()}, velocity: {self.number()}, duration: {self.number()})",
                             f"spring(dampingRatio: {self.number()})", f"spring(duration: {self.number()}, bounce: {self.number()})",
                             f"cubic-bezier({r.choice([0, 1, 0.5])}, {self.number()}, {r.choice([0, 1, 0.99999999])}, {self.number()})",
                             f"steps({self.number()}, {r.choice(['jump-none', 'jump-both', 'end'])})"])
        return r.choice(CURVES)

    def text(self):
        r = self.r
        kind = r.randrange(11)
        if kind == 0:
            return "\u00ad" * 100_000
        if kind == 1:
            return "\u200b" * 300_000
        if kind == 2:
            return "Rate" + "\u00ad" * r.choice([1000, 100_000]) + "it"
        if kind == 3:
            return "e" + "\u0301" * r.choice([100, 10_000, 60_000])
        if kind == 4:
            parts = ["abc ", "שלום ", "123 ", "مرحبا ", "\u202e", "\u2066", "\u2069", "\u200f", "\u200e", "ffi ",
                     "👩‍👩‍👧‍👦", "\ufeff", "\n"]
            return "".join(r.choice(parts) for _ in range(r.choice([10, 1000, 20_000])))
        if kind == 5:
            return "Show More " * r.choice([100, 20_000])
        if kind == 6:
            return "\n" * 10_000
        if kind == 7:
            return "a\u200b\u00ad" * 50_000
        if kind == 8:
            return "\u0e01\u0e31\u0e49" * 5000
        if kind == 9:
            return ""
        return r.choice(["Rate it", "ZY 2014", "✈ → 漢字 😀", "مرحبا بالعالم 123 abc", "office ffl"])

    def transform3d(self):
        r = self.r
        if r.random() < 0.6:
            return copy.deepcopy(r.choice(TRANSFORMS_3D))
        operations = []
        for _ in range(r.randint(1, 4)):
            kind = r.randrange(5)
            if kind == 0:
                operations.append({"perspective": r.choice([1e-6, 0.5, 1, 500, 1e6, 1e-300])})
            elif kind == 1:
                operations.append({"rotate": r.choice([90, -90, 89.9999, 270, 180, 1e6, 0]),
                                   "axis": [r.choice([0, 1]), r.choice([0, 1, 1e-300]), r.choice([0, 1, 1e6])]})
            elif kind == 2:
                operations.append({"translate": [r.choice([0, 1e6, -1e6]), 0, r.choice([0, 499.9999, 1e6, -1e6])]})
            elif kind == 3:
                operations.append({"scale": [r.choice([1e5, 1e-5, 0, -1]), r.choice([1e5, 1e-5, 0, 1])]})
            else:
                operations.append({"matrix": [(1 if i % 5 == 0 else 0) if r.random() < 0.6 else
                                              r.choice([1e6, -1e6, 1e-6, 0, 1e-300]) for i in range(16)]})
        return operations

    def value(self, prop):
        r = self.r
        if prop in ("opacity", "effect", "dim", "curl"):
            return r.randrange(11) / 10 if r.random() < 0.8 else self.number()
        if prop in ("blur", "cornerRadius"):
            return r.randrange(60) if r.random() < 0.8 else self.number()
        if prop in ("rotation", "rotation3D"):
            return r.randrange(1000) - 500 if r.random() < 0.7 else r.choice([1e6, -1e6, 1e300, 90])
        if prop == "transform":
            return r.choice(SINGULAR_TRANSFORMS) if r.random() < 0.5 else r.choice(
                ["scale(1)", "translate(600, 0) scale(5)", "rotate(350deg)", "scale(0.1)"])
        if prop == "transform3D":
            return self.transform3d()
        if prop == "frame":
            return {k: r.randrange(300) if r.random() < 0.8 else self.number() for k in ("x", "y", "width", "height")}
        if prop == "color":
            return r.choice(["#000", "#ffffff80", "red", "transparent", "#ＦＦＦ"])
        return r.choice(["coffee.jpg", "table.jpg", "missing.jpg"])

    def timing(self, animation):
        r = self.r
        for _ in range(r.randint(1, 3)):
            kind = r.randrange(5)
            if kind == 0:
                animation["duration"] = r.choice([72, 3600, 3599.999, 1e-9, 5e-324, 0, 0.001, 1e-300, 3600.0001, 0.3, -1])
            elif kind == 1:
                animation["delay"] = r.choice([0, 3599, 3600, 1e-9, 0.1, 3600.0001])
            elif kind == 2:
                animation["repeatCount"] = r.choice(["forever", 1000000, 999999.999, 1000000.0001, 0.5, 1e-9, 2, 3.7,
                                                     0, -1, 1e300, 100000])
            elif kind == 3:
                animation["autoreverses"] = r.choice([True, False, 1])
            else:
                animation["delayFactor"] = r.choice([0, 0.5, 0.999, 0.9999999, 1])
        if r.random() < 0.1:  # 72 s a million times: more than 2^32 frames at 60 fps
            animation["duration"], animation["repeatCount"] = 72, 1000000
            if r.random() < 0.5:
                animation["autoreverses"] = True

    def keyframes(self, prop):
        r = self.r
        count = r.choice([1, 2, 3, 7, 200, 2000, 5000])
        order = r.randrange(4)
        result = []
        for i in range(count):
            if order == 0:
                time = (i + 1) / count
            elif order == 1:
                time = (count - i) / count
            elif order == 2:
                time = r.choice([0, 1, 0.5, -0.0, 1e-300])
            else:
                time = r.randrange(1001) / 1000 if r.random() < 0.8 else self.number()
            keyframe = {"time": time, "value": self.value(prop)}
            if r.random() < 0.2:
                keyframe["curve"] = self.curve()
            result.append(keyframe)
        return result

    def new_animation(self, kind):
        r = self.r
        prop = r.choice(PROPERTIES.get(kind, ["opacity"]) + ["transform3D", "rotation3D"])
        animation = {"property": prop, "to": self.value(prop), "duration": r.randint(1, 6) / 10}
        if prop == "frame":
            animation["from"] = self.value(prop)
        if prop == "rotation3D" and r.random() < 0.7:
            animation["axis"] = r.choice([[0, 1, 0], [1, 0, 0], [0, 0, 0], [1e6, 1e-300, 0]])
        return animation

    def cell(self):
        r = self.r
        rate, life = r.choice([(100, 100), (1000, 10), (10000, 1), (10001, 1), (10000, 3600), (10, 1000), (1, 3600),
                               (9999, 1.0001)])
        cell = {"shape": "circle"} if r.random() < 0.8 else {"image": "coffee.jpg"}
        cell.update({"birthRate": rate, "lifetime": life})
        numbers = [("velocity", [100000, -100000, 0, 100001]), ("velocityRange", [100000, 0]),
                   ("xAcceleration", [100000, -100000]), ("yAcceleration", [100000, -100000, 1e-300]),
                   ("scale", [1000, 0, 1e-9]), ("scaleSpeed", [1000, -1000]), ("spin", [36000, -36000]),
                   ("alphaSpeed", [-1000, 1000]), ("contentsScale", [0.01, 100, 0]), ("emissionRange", [360, 0]),
                   ("emissionLongitude", [3600, -3600]), ("lifetimeRange", [3600, 0])]
        for key, values in numbers:
            if r.random() < 0.25:
                cell[key] = r.choice(values)
        if "shape" in cell and r.random() < 0.3:
            cell["diameter"] = r.choice([10000, 1e-9, 10000.1])
        return cell

    def emitter_numbers(self, emitter):
        r = self.r
        for _ in range(r.randint(1, 4)):
            kind = r.randrange(7)
            if kind == 0:
                emitter["birthRate"] = r.choice([1000, 1000.0001, 0, 500, 1])
            elif kind == 1:
                emitter["lifetime"] = r.choice([1000, 10, 1e-9, 1000.5, 100])
            elif kind == 2:
                emitter["timeOffset"] = r.choice([3600, 3599, 0, 1e-9, 3600.5, 1000])
            elif kind == 3:
                emitter["seed"] = r.choice([4294967295, 4294967296, 0, 0.5])
            elif kind == 4:
                emitter["emitterPosition"] = r.choice([[-1e6, -1e6], [1e6, 1e6], [0, 0], [195, -10]])
            elif kind == 5:
                emitter["emitterSize"] = r.choice([[1e6, 1e6], [0, 0], [390, 0], [1e-300, 1e6]])
            else:
                emitter["emitterShape"] = r.choice(["point", "line", "rectangle", "circle", "cuboid"])
                emitter["emitterMode"] = r.choice(["points", "outline", "surface", "volume"])

    def new_emitter(self, tiny):
        r = self.r
        emitter = {"type": "emitter"}
        if r.random() < 0.4:
            emitter["preset"] = "snow"
        if tiny or r.random() < 0.6:
            emitter["emitterCells"] = [self.cell() for _ in range(r.choice([1, 1, 2, 64, 65]))]
            emitter["birthRate"] = r.choice([1, 1, 1000])
        self.emitter_numbers(emitter)
        if tiny:
            emitter["emitterPosition"] = r.choice([[0, 0], [1, 1], [-5, 2]])
        return emitter

    def transition_options(self, style, layer):
        r = self.r
        if style == "cube":
            layer["direction"] = r.choice(["up", "down", "up", "left"])
        elif style == "fadeAndBounce":
            layer["offset"] = r.choice([[-80, 0], [1e6, -1e6], [0, 0], [1e-300, 0], [1000001, 0], [5]])
        elif style in ("grow", "shrink"):
            if r.random() < 0.9:
                layer["point"] = r.choice([[0, 0], [-1e6, 1e6], [195, 422], [1e-300, 5e-324], [390, 844], ["a", 1]])
        elif style in ("coverVertical", "partialCurl", "flipHorizontal"):
            layer["presenting"] = r.choice([True, False, True, 1])
        elif style in ("flip", "cube3D"):
            layer["edge"] = r.choice(["left", "right", "top", "bottom", "front"])
        elif style == "swiftUI":
            items = ["move(top)", "move(bottom)", "move(leading)", "move(trailing)", "opacity", "scale", "scale(0.5)",
                     "scale(0)", "scale(1e6)", "scale(-1)", "slide", "move(up)", "opacity"]
            for key in ("insertion", "removal"):
                if r.random() < 0.7:
                    layer[key] = [r.choice(items) for _ in range(r.choice([0, 1, 2, 3, 8, 9]))]

    def transition(self, old, new):
        r = self.r
        style = r.choice(TRANSITION_STYLES) if r.random() < 0.97 else r.choice(["fade", "Cube", ""])
        layer = {"type": "transition", "style": style, "from": old, "to": new}
        self.transition_options(style, layer)
        if r.random() < 0.4:
            layer["duration"] = r.choice([0, 1e-9, 3600, 72, 0.5, -1, 3600.0001, 5e-324])
        if r.random() < 0.3:
            layer["delay"] = r.choice([0, 3599, 1e-9, 0.2, 3600])
        if r.random() < 0.4:
            layer["curve"] = self.curve()
        return layer

    def scene(self, fixtures):
        """One fixture mutated: (the scene, its canvas's pixels as drawn)."""
        r = self.r
        scene = copy.deepcopy(r.choice(fixtures)[1])
        canvas = scene.setdefault("canvas", {})
        canvas["scale"] = r.choice([0.1, 0.2, 0.25, 0.5, 1]) if r.random() < 0.85 else r.choice([3, 16, 1e-9])
        for _ in range(r.randint(1, 8 if r.random() < 0.2 else 3)):
            self.mutate(scene)
        try:
            pixels = int(canvas["width"] * canvas["height"] * canvas["scale"] ** 2)
        except (TypeError, KeyError, ValueError, OverflowError):
            pixels = 0
        return scene, pixels

    def layers(self, scene):
        """(layer, its list, its index) for every layer, a transition's from and to included."""
        found = []

        def walk(value, parent, key):
            if isinstance(value, dict):
                if isinstance(value.get("type"), str) and parent is not None:
                    found.append((value, parent, key))
                for k, v in value.items():
                    if k not in ("emitterCells", "animations"):
                        walk(v, value, k)
            elif isinstance(value, list):
                for i, v in enumerate(value):
                    walk(v, value, i)
        walk(scene.get("layers"), scene, "layers")
        return found

    def mutate(self, scene):
        r = self.r
        layers = self.layers(scene)
        if not layers:
            return
        kind = r.randrange(14)
        if kind in (0, 1):  # an animation's curve, keyframes, timing or value
            animated = [entry for entry in layers if isinstance(entry[0].get("animations"), list) and entry[0]["animations"]]
            layer = r.choice(animated or layers)[0]
            animations = layer.get("animations")
            if not isinstance(animations, list) or not animations:
                layer["animations"] = [self.new_animation(layer.get("type"))]
                return
            animation = r.choice(animations)
            if not isinstance(animation, dict):
                return
            prop = animation.get("property", "opacity")
            choice = r.randrange(4)
            if choice == 0 or prop == "image":
                animation["curve"] = self.curve()
            elif choice == 1:
                animation.pop("to", None)
                animation["keyframes"] = self.keyframes(prop)
            elif choice == 2:
                self.timing(animation)
            else:
                animation["to"] = self.value(prop)
                if r.random() < 0.3:
                    animation["velocity"] = r.choice([[1, 0.2], 1e300, [1e6, -1e6], 0])
        elif kind == 2:  # many animations on one layer over a long scene
            layer = r.choice(layers)[0]
            count = r.choice([50, 500, 2000, 2000, 5000])
            # 3,599 s (the earlier fuzzer's case) or an hour: at the CLI's 12 fps and more, past the 36,000 frames
            # animate allows, refused at once; a lower rate would draw them all, minutes within the documented bound.
            last = r.choice([3599, 3600])
            layer["animations"] = [
                {"property": "opacity" if i % 2 == 0 else "transform",
                 "to": (0.2 if i % 4 == 0 else 1) if i % 2 == 0 else "scale(1.1)", "duration": 0.5,
                 "delay": i * (last - 0.5) / max(count - 1, 1)} for i in range(count)]
        elif kind in (3, 4):  # text
            texts = [entry[0] for entry in layers if entry[0].get("type") == "text"]
            if not texts or r.random() < 0.1:
                label = {"type": "text", "text": "Rate it", "frame": {"x": 40, "y": 430, "width": 180, "height": 44}}
                scene["layers"].append(label)
                texts = [label]
            label = r.choice(texts)
            which = r.randrange(6)
            if which == 0:
                label["text"] = self.text()
            elif which == 1:
                label["size"] = r.choice([16384, 16384.0001, 1e-300, 5e-324, 0.001, 4000, 2000])
                if r.random() < 0.5:
                    label["lineLimit"] = r.choice([0, 1000000, 1])
            elif which == 2:
                label["tracking"] = r.choice([-1000, 1000, -1000.1, 0.5])
                label["lineSpacing"] = r.choice([10000, 0, 1e-300])
            elif which == 3:
                label["transform"] = r.choice(SINGULAR_TRANSFORMS)
            elif which == 4:
                label["transform3D"] = [{"scale": [100000, 0.00001]}] if r.random() < 0.5 else self.transform3d()
            else:
                animations = label["animations"] if isinstance(label.get("animations"), list) else []
                animations.append({"property": "transform", "to": r.choice(SINGULAR_TRANSFORMS),
                                   "duration": r.choice([0.3, 1, 0])})
                label["animations"] = animations
        elif kind in (5, 6):  # emitters
            if r.random() < 0.25:
                scene["layers"] += [self.new_emitter(tiny=True) for _ in range(r.choice([200, 250, 400]))]
                width, height = r.choice([(1, 1), (4, 3), (10, 10)])
                scene["canvas"].update({"width": width, "height": height, "scale": 1})
                return
            emitters = [entry[0] for entry in layers if entry[0].get("type") == "emitter"]
            if not emitters or r.random() < 0.3:
                scene["layers"].append(self.new_emitter(tiny=False))
                return
            emitter = r.choice(emitters)
            self.emitter_numbers(emitter)
            if r.random() < 0.4:
                emitter["emitterCells"] = [self.cell()]
        elif kind in (7, 8):  # 3D transforms and their animations
            layer = r.choice(layers)[0]
            if r.random() < 0.7:
                layer["transform3D"] = self.transform3d()
            if r.random() < 0.3:
                layer["doubleSided"] = False
            prop = r.choice(["rotation3D", "transform3D"])
            animation = {"property": prop, "duration": r.choice([0.4, 1e-9, 3600])}
            if prop == "rotation3D":
                animation.update({"to": r.choice([180, 90, 1e6, -90.000001]),
                                  "axis": r.choice([[0, 1, 0], [1, 0, 0], [1, 1, 1e-300]])})
            else:
                animation["to"] = self.transform3d()
                if r.random() < 0.5:
                    animation["from"] = self.transform3d()
            animations = layer["animations"] if isinstance(layer.get("animations"), list) else []
            layer["animations"] = animations + [animation] + ([self.new_animation("group")] if r.random() < 0.5 else [])
        elif kind == 9:  # curls
            curled = [entry for entry in layers if entry[0].get("type") == "curled"]
            layer, parent, key = r.choice(curled) if curled and r.random() < 0.5 else r.choice(layers)
            if layer.get("type") != "curled":
                page = {"type": "curled", "layers": [layer]}
                if "frame" in layer and r.random() < 0.5:
                    page["frame"] = layer["frame"]
                parent[key] = layer = page
            layer["progress"] = r.choice([0, 1, 0.3, 0.999999, 1e-300, 1.0001])
            if r.random() < 0.6:
                layer["angle"] = r.choice([60, -60, 0, 15, 60.0001, -59.9999])
            if r.random() < 0.6:
                layer["radius"] = r.choice([0.01, 1, 0.1, 0.0099, 1e-300])
            if r.random() < 0.6:
                layer["direction"] = r.choice(["up", "down", "left"])
            if r.random() < 0.6:
                layer["animations"] = [{"property": "curl", "to": r.choice([1, 0, 0.5]),
                                        "duration": r.choice([1, 1e-9, 3600]), "curve": self.curve()}]
        elif kind in (10, 11):  # transitions
            transitions = [entry[0] for entry in layers if entry[0].get("type") == "transition"]
            if transitions and r.random() < 0.5:
                layer = r.choice(transitions)
                layer["style"] = r.choice(TRANSITION_STYLES)
                self.transition_options(layer["style"], layer)
                which = r.randrange(3)
                if which == 0:
                    layer["duration"] = r.choice([0, 1e-9, 3600, 72, -1, 0.5])
                elif which == 1:
                    layer["curve"] = self.curve()
                return
            old, parent, key = r.choice(layers)
            new = copy.deepcopy(r.choice(layers)[0])
            if new.get("type") == "text" and r.random() < 0.5:
                new["text"] = self.text()
            if r.random() < 0.15:
                new = self.transition(new, copy.deepcopy(old))
            parent[key] = self.transition(old, new)
        elif kind == 12:  # any number made hostile
            numbers = []

            def walk(value):
                if isinstance(value, dict):
                    for k, v in value.items():
                        if isinstance(v, (int, float)) and not isinstance(v, bool):
                            numbers.append((value, k))
                        else:
                            walk(v)
                elif isinstance(value, list):
                    for i, v in enumerate(value):
                        if isinstance(v, (int, float)) and not isinstance(v, bool):
                            numbers.append((value, i))
                        else:
                            walk(v)
            walk(scene)
            if numbers:
                container, key = r.choice(numbers)
                container[key] = self.number()
        else:  # a layer repeated, or one of its keys removed
            layer, parent, key = r.choice(layers)
            if not isinstance(parent, list):
                return
            if r.random() < 0.3 and len(layer) > 1:
                del layer[r.choice([k for k in layer if k != "type"] or ["type"])]
            else:
                for _ in range(r.choice([2, 10, 100])):
                    parent.insert(key, copy.deepcopy(layer))
