"""Tests of the Python module `blurtool` (python/blurtool) over the C library.

    BLURTOOL_LIBRARY=.build/release/libBlurToolCAPI.so PYTHONPATH=python \
        .venv-python/bin/python -m unittest discover -s Tests/Python -v

Without BLURTOOL_LIBRARY the library built in this repository (.build/release) is used when it exists, and
without PYTHONPATH this repository's python/ folder. Needs numpy: without it the module is skipped, saying
why, unless BLURTOOL_REQUIRE_ORACLES=1, where it fails.
"""
import os
import subprocess
import sys
import tempfile
import threading
import unittest

REPOSITORY = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
BUILT_LIBRARY = os.path.join(REPOSITORY, ".build", "release", "libBlurToolCAPI.so")
CLI = os.path.join(REPOSITORY, ".build", "release", "blurtool")
FIXTURES = os.path.join(REPOSITORY, "fixtures")

try:
    import numpy as np
except ImportError as error:
    if os.environ.get("BLURTOOL_REQUIRE_ORACLES") == "1":
        raise ImportError(f"numpy is required when BLURTOOL_REQUIRE_ORACLES=1: {error}") from error
    print("test_blurtool: skipped: numpy is not installed (pip install numpy)", file=sys.stderr)
    raise unittest.SkipTest("numpy is not installed (pip install numpy)")

if os.path.exists(BUILT_LIBRARY):
    os.environ.setdefault("BLURTOOL_LIBRARY", BUILT_LIBRARY)
if os.path.join(REPOSITORY, "python") not in sys.path:
    sys.path.insert(0, os.path.join(REPOSITORY, "python"))
import blurtool  # noqa: E402


def random_image(height, width, seed=0, opaque=False):
    """Straight RGBA noise, smoothed a little so blurs and warps have structure to move."""
    pixels = np.random.default_rng(seed).integers(0, 256, (height, width, 4), dtype=np.uint8)
    if opaque:
        pixels[..., 3] = 255
    return pixels


def premultiplied_image(height, width, seed=0):
    """Valid premultiplied RGBA: no channel above its alpha."""
    pixels = random_image(height, width, seed)
    pixels[..., :3] = np.minimum(pixels[..., :3], pixels[..., 3:])
    return pixels


class Blur(unittest.TestCase):
    def test_region_equals_the_whole_blur_cropped(self):
        image = random_image(40, 50, seed=1)
        x, y, width, height = 7, 5, 20, 17
        for premultiplied in (False, True):
            source = premultiplied_image(40, 50, seed=1) if premultiplied else image
            for edge in ("mirror", "clamp", "wrap", "transparent"):
                for sigma in (1.5, 4, 9):
                    with self.subTest(premultiplied=premultiplied, edge=edge, sigma=sigma):
                        whole = blurtool.blur(source, sigma, edge=edge, premultiplied=premultiplied)
                        part = blurtool.blur(source, sigma, edge=edge, premultiplied=premultiplied,
                                             region=(x, y, width, height))
                        self.assertEqual(part.shape, (height, width, 4))
                        np.testing.assert_array_equal(part, whole[y:y + height, x:x + width])

    def test_in_place_equals_out_of_place(self):
        image = random_image(30, 40, seed=2)
        region = (3, 4, 25, 20)
        expected = blurtool.blur(image, 2.5, region=region)
        target = image.copy()
        self.assertIs(blurtool.blur(target, 2.5, region=region, out=target), target)
        np.testing.assert_array_equal(target[4:24, 3:28], expected)
        outside = np.ones(image.shape[:2], bool)
        outside[4:24, 3:28] = False
        np.testing.assert_array_equal(target[outside], image[outside])
        # out= another array of the region's size.
        other = np.zeros((20, 25, 4), np.uint8)
        self.assertIs(blurtool.blur(image, 2.5, region=region, out=other), other)
        np.testing.assert_array_equal(other, expected)

    def test_straight_and_premultiplied_agree_on_an_opaque_image(self):
        image = random_image(24, 32, seed=3, opaque=True)
        np.testing.assert_array_equal(blurtool.blur(image, 3), blurtool.blur(image, 3, premultiplied=True))

    def test_sigma_zero_copies(self):
        for description, image, premultiplied in (
                ("premultiplied", premultiplied_image(10, 12, seed=4), True),
                ("straight, opaque", random_image(10, 12, seed=4, opaque=True), False)):
            with self.subTest(description):
                copy = blurtool.blur(image, 0, premultiplied=premultiplied)
                self.assertIsNot(copy, image)
                np.testing.assert_array_equal(copy, image)
        # Straight translucent pixels are copied as they are too (no trip through premultiplied colour).
        translucent = random_image(10, 12, seed=4)
        np.testing.assert_array_equal(blurtool.blur(translucent, 0), translucent)
        np.testing.assert_array_equal(blurtool.blur(translucent, -1, region=(2, 3, 5, 4)), translucent[3:7, 2:7])

    def test_strided_views_equal_their_contiguous_copies(self):
        padded = random_image(40, 60, seed=5)
        views = {
            "a crop (rows padded, passed where it is)": padded[3:33, 5:45],
            "every other column (copied)": padded[:, ::2],
            "rows upside down (copied)": padded[::-1],
            "channels reversed (copied)": padded[..., ::-1],
        }
        for description, view in views.items():
            with self.subTest(view=description):
                np.testing.assert_array_equal(blurtool.blur(view, 2), blurtool.blur(view.copy(), 2))
                np.testing.assert_array_equal(blurtool.blur(view, 2, region=(2, 3, 9, 7)),
                                              blurtool.blur(view.copy(), 2, region=(2, 3, 9, 7)))

    def test_in_place_on_views_writes_through_and_nowhere_else(self):
        for description, select in {"a crop": np.s_[3:33, 5:45], "every other column": np.s_[:, ::2]}.items():
            with self.subTest(view=description):
                padded = random_image(40, 60, seed=6)
                original = padded.copy()
                view = padded[select]
                expected = blurtool.blur(view.copy(), 2)
                blurtool.blur(view, 2, out=view)
                np.testing.assert_array_equal(padded[select], expected)
                untouched = np.ones(padded.shape[:2], bool)
                untouched[select[:2]] = False
                np.testing.assert_array_equal(padded[untouched], original[untouched])

    def test_threads_give_the_same_bits_and_threads_may_call_at_once(self):
        image = random_image(64, 80, seed=7)
        expected = blurtool.blur(image, 5, threads=1)
        np.testing.assert_array_equal(blurtool.blur(image, 5), expected)
        results = [None] * 4

        def work(index):
            for _ in range(5):
                results[index] = blurtool.blur(image, 5, threads=2)

        workers = [threading.Thread(target=work, args=(index,)) for index in range(4)]
        for worker in workers:
            worker.start()
        for worker in workers:
            worker.join()
        for result in results:
            np.testing.assert_array_equal(result, expected)

    def test_bad_arguments_raise(self):
        image = random_image(10, 12, seed=8)
        with self.assertRaisesRegex(blurtool.BlurtoolError, "sigma") as caught:
            blurtool.blur(image, float("nan"))
        self.assertEqual(caught.exception.status, blurtool.BlurtoolError.ARGUMENT)
        with self.assertRaisesRegex(blurtool.BlurtoolError, "threads"):
            blurtool.blur(image, 2, threads=-1)
        with self.assertRaisesRegex(ValueError, "32 bits"):
            blurtool.blur(image, 2, threads=2**32)  # ctypes alone would wrap this to 0
        with self.assertRaisesRegex(blurtool.BlurtoolError, "region"):
            blurtool.blur(image, 2, region=(5, 5, 10, 10))
        with self.assertRaisesRegex(blurtool.BlurtoolError, "region"):
            blurtool.blur(image, 2, region=(0, 0, 0, 4))
        with self.assertRaisesRegex(TypeError, "uint8"):
            blurtool.blur(image.astype(np.float32), 2)
        with self.assertRaisesRegex(ValueError, "shape"):
            blurtool.blur(image[..., :3], 2)
        with self.assertRaisesRegex(ValueError, "shape"):
            blurtool.blur(image, 2, out=np.zeros((10, 11, 4), np.uint8))
        with self.assertRaisesRegex(ValueError, "edge"):
            blurtool.blur(image, 2, edge="reflect")
        readonly = image.copy()
        readonly.flags.writeable = False
        with self.assertRaisesRegex(ValueError, "read-only"):
            blurtool.blur(readonly, 2, out=readonly)
        np.testing.assert_array_equal(blurtool.blur(readonly, 2), blurtool.blur(image, 2))  # reading one is fine


class Material(unittest.TestCase):
    def test_a_region_is_the_whole_material_cropped(self):
        image = random_image(90, 60, seed=9, opaque=True)
        # At 3 pixels a point the blur takes the pyramid route: a region equals the crop to the bit. At the
        # default scale (the image fills a phone screen, 0.15 px a point) it takes the exact route, where the
        # library promises one step at most (a region is blurred, rounded, then shaded).
        for pixels_per_point, tolerance in ((3, 0), (0, 1)):
            with self.subTest(pixels_per_point=pixels_per_point):
                options = dict(appearance="dark", dim=0.2, pixels_per_point=pixels_per_point)
                frosted = blurtool.material(image, "thin", region=(0, 50, 60, 40), **options)
                self.assertEqual(frosted.shape, (40, 60, 4))
                whole = blurtool.material(image, "thin", **options)
                difference = np.abs(frosted.astype(int) - whole[50:90]).max()
                self.assertLessEqual(difference, tolerance)

    def test_an_unknown_name_raises_naming_name(self):
        with self.assertRaisesRegex(blurtool.BlurtoolError, "name") as caught:
            blurtool.material(random_image(8, 8), "frosted")
        self.assertEqual(caught.exception.status, blurtool.BlurtoolError.ARGUMENT)
        self.assertIn("frosted", str(caught.exception))
        with self.assertRaisesRegex(ValueError, "NUL"):
            blurtool.material(random_image(8, 8), "thin\0anything")


class Composite(unittest.TestCase):
    def test_an_opaque_source_over_replaces_the_pixels_it_covers(self):
        destination = random_image(20, 30, seed=10)
        original = destination.copy()
        source = random_image(8, 10, seed=11, opaque=True)
        self.assertIs(blurtool.composite(destination, source, 5, 6), destination)
        np.testing.assert_array_equal(destination[6:14, 5:15], source)
        destination[6:14, 5:15] = original[6:14, 5:15]
        np.testing.assert_array_equal(destination, original)

    def test_parts_outside_are_skipped_and_a_zero_mask_draws_nothing(self):
        destination = random_image(20, 30, seed=12, opaque=True)
        source = random_image(8, 10, seed=13, opaque=True)
        blurtool.composite(destination, source, 25, -3)
        np.testing.assert_array_equal(destination[0:5, 25:30], source[3:8, 0:5])
        before = destination.copy()
        blurtool.composite(destination, source, 2, 2, mask=np.zeros((8, 10), np.uint8))
        np.testing.assert_array_equal(destination, before)
        with self.assertRaisesRegex(ValueError, "mask"):
            blurtool.composite(destination, source, 2, 2, mask=np.zeros((10, 8), np.uint8))
        with self.assertRaisesRegex(blurtool.BlurtoolError, "op"):
            blurtool.composite(destination, source, 2, 2, operator="smudge")


class Warp(unittest.TestCase):
    def test_identity_equals_the_input(self):
        image = random_image(16, 20, seed=14, opaque=True)
        for filter in ("nearest", "bilinear", "catmull-rom", "mitchell", "lanczos3"):
            with self.subTest(filter=filter):
                np.testing.assert_array_equal(blurtool.warp(image, (1, 0, 0, 1, 0, 0), (20, 16), filter=filter), image)
        np.testing.assert_array_equal(blurtool.warp(image, np.eye(4), (20, 16)), image)

    def test_translation_by_one_pixel_shifts_right(self):
        image = random_image(16, 20, seed=15, opaque=True)
        shifted = blurtool.warp(image, (1, 0, 0, 1, 1, 0), (20, 16))
        np.testing.assert_array_equal(shifted[:, 1:], image[:, :-1])
        np.testing.assert_array_equal(shifted[:, 0], 0)  # uncovered: transparent

    def test_bad_transforms_raise(self):
        image = random_image(4, 4, seed=16)
        with self.assertRaisesRegex(ValueError, "transform"):
            blurtool.warp(image, (1, 0, 0, 1), (4, 4))
        with self.assertRaisesRegex(blurtool.BlurtoolError, "matrix"):
            blurtool.warp(image, (1, 0, 0, 1, float("inf"), 0), (4, 4))


class Codecs(unittest.TestCase):
    def test_png_round_trips(self):
        opaque = random_image(12, 9, seed=17, opaque=True)
        png = blurtool.encode(opaque)
        self.assertTrue(png.startswith(b"\x89PNG"))
        np.testing.assert_array_equal(blurtool.decode(png), opaque)
        # With alpha: what one round trip gives, the next keeps.
        decoded = blurtool.decode(blurtool.encode(random_image(12, 9, seed=18)))
        np.testing.assert_array_equal(blurtool.decode(blurtool.encode(decoded)), decoded)
        np.testing.assert_array_equal(blurtool.decode(bytearray(png)), opaque)

    def test_jpeg_and_bad_data(self):
        jpeg = blurtool.encode(random_image(16, 16, seed=19), "jpeg", quality=80)
        self.assertTrue(jpeg.startswith(b"\xff\xd8"))
        self.assertEqual(blurtool.decode(jpeg).shape, (16, 16, 4))
        with self.assertRaises(blurtool.BlurtoolError) as caught:
            blurtool.decode(b"not an image at all")
        self.assertEqual(caught.exception.status, blurtool.BlurtoolError.DATA)
        with self.assertRaises(blurtool.BlurtoolError) as caught:
            blurtool.decode(blurtool.encode(random_image(30, 30, seed=20)), max_pixels=100)
        self.assertEqual(caught.exception.status, blurtool.BlurtoolError.LIMIT)
        with self.assertRaisesRegex(ValueError, "format"):
            blurtool.encode(random_image(4, 4), "webp")

    @unittest.skipUnless(os.access(CLI, os.X_OK), f"the CLI is not built at {CLI}")
    def test_the_cli_blurs_to_the_same_pixels(self):
        image = random_image(48, 64, seed=21, opaque=True)
        with tempfile.TemporaryDirectory() as folder:
            source, result = os.path.join(folder, "in.png"), os.path.join(folder, "out.png")
            with open(source, "wb") as file:
                file.write(blurtool.encode(image))
            subprocess.run([CLI, source, "--sigma", "3", "-o", result], check=True, capture_output=True)
            with open(result, "rb") as file:
                from_cli = blurtool.decode(file.read())
        np.testing.assert_array_equal(from_cli, blurtool.blur(image, 3))


class Scenes(unittest.TestCase):
    def test_a_scene_from_json(self):
        red = {"canvas": {"width": 8, "height": 6}, "layers": [{"type": "color", "color": "red"}]}
        with blurtool.Scene.from_json(red) as scene:
            self.assertEqual(scene.size, (8, 6))
            self.assertEqual(scene.duration, 0)
            frame = scene.render()
            self.assertEqual(frame.shape, (6, 8, 4))
            np.testing.assert_array_equal(frame, np.broadcast_to([255, 0, 0, 255], (6, 8, 4)))
            out = np.zeros((6, 8, 4), np.uint8)
            self.assertIs(scene.render(0, out=out), out)
            np.testing.assert_array_equal(out, frame)
        with self.assertRaisesRegex(ValueError, "closed"):
            scene.render()
        scene.close()  # twice is harmless

    def test_an_animated_scene_file(self):
        with blurtool.Scene(os.path.join(FIXTURES, "review-entrance.json")) as scene:
            width, height = scene.size
            self.assertGreater(scene.duration, 0.5)
            frame = scene.render(0.5)
            self.assertEqual(frame.shape, (height, width, 4))
            self.assertEqual(frame.dtype, np.uint8)
            self.assertTrue(frame.any())
            # Frames asked out of order, on other thread counts, through the kept layers: the same bits.
            scene.render(0.9, threads=1)
            np.testing.assert_array_equal(scene.render(0.5, threads=2), frame)

    def test_bad_scenes_raise(self):
        with self.assertRaises(blurtool.BlurtoolError) as caught:
            blurtool.Scene(os.path.join(FIXTURES, "no-such-scene.json"))
        self.assertEqual(caught.exception.status, blurtool.BlurtoolError.FILE)
        with self.assertRaises(blurtool.BlurtoolError) as caught:
            blurtool.Scene.from_json('{"canvas": ')
        self.assertEqual(caught.exception.status, blurtool.BlurtoolError.DATA)


class Text(unittest.TestCase):
    def test_measure_gives_positive_sizes_growing_with_size(self):
        small = blurtool.measure_text("Hello, world", size=12)
        large = blurtool.measure_text("Hello, world", size=24)
        self.assertTrue(all(side > 0 for side in small))
        self.assertGreater(large[0], small[0])
        self.assertGreater(large[1], small[1])
        wrapped = blurtool.measure_text("Hello, world " * 10, size=12, width=100)
        self.assertLessEqual(wrapped[0], 100)
        self.assertGreater(wrapped[1], small[1])

    def test_draw_changes_pixels_inside_the_measured_box(self):
        canvas = np.full((40, 120, 4), 255, np.uint8)
        width, height = blurtool.measure_text("Hello", size=20)
        self.assertIs(blurtool.draw_text(canvas, "Hello", 4, 6, size=20, color=(0, 0, 0, 1)), canvas)
        changed = np.argwhere((canvas != 255).any(axis=2))
        self.assertGreater(len(changed), 0)
        # Within the box measure_text gives, give or take a pixel of antialiasing.
        self.assertGreaterEqual(changed[:, 0].min(), 6 - 1)
        self.assertGreaterEqual(changed[:, 1].min(), 4 - 1)
        self.assertLessEqual(changed[:, 0].max(), 6 + height + 1)
        self.assertLessEqual(changed[:, 1].max(), 4 + width + 1)
        with self.assertRaisesRegex(blurtool.BlurtoolError, "weight"):
            blurtool.measure_text("Hello", weight=450)


class Paths(unittest.TestCase):
    def test_a_square_on_whole_pixels_covers_exactly_them(self):
        canvas = np.zeros((20, 20, 4), np.uint8)
        blurtool.fill_path(canvas, "M2 2 h6 v6 h-6 z", (1, 0, 0, 1), transform=(2, 0, 0, 2, 1, 3))
        expected = np.zeros_like(canvas)
        expected[7:19, 5:17] = (255, 0, 0, 255)
        np.testing.assert_array_equal(canvas, expected)

    def test_even_odd_leaves_a_hole_and_non_zero_fills_it(self):
        ring = "M0 0 H20 V20 H0 Z M5 5 H15 V15 H5 Z"
        canvas = blurtool.fill_path(np.zeros((20, 20, 4), np.uint8), ring, (0, 0, 1, 1), rule="evenodd")
        self.assertEqual(canvas[10, 10, 3], 0)
        self.assertEqual(canvas[2, 2, 3], 255)
        blurtool.fill_path(canvas, ring, (0, 0, 1, 1))
        self.assertEqual(canvas[10, 10, 3], 255)

    def test_a_dashed_stroke_is_its_rectangles(self):
        canvas = np.zeros((10, 10, 4), np.uint8)
        blurtool.stroke_path(canvas, "M0 5 H10", (1, 1, 1, 1), width=2, dashes=[2, 2])
        on = np.array([(x // 2) % 2 == 0 for x in range(10)])
        np.testing.assert_array_equal(canvas[4:6, :, 3], np.where(on, 255, 0)[None, :].repeat(2, axis=0))
        self.assertFalse(canvas[:4].any() or canvas[6:].any())

    def test_bad_paths_raise_naming_the_argument(self):
        canvas = np.zeros((10, 10, 4), np.uint8)
        with self.assertRaisesRegex(blurtool.BlurtoolError, "svg_path_data"):
            blurtool.fill_path(canvas, "M0 0 L5", (1, 1, 1, 1))
        with self.assertRaisesRegex(ValueError, "rule"):
            blurtool.fill_path(canvas, "M0 0 H5 V5 Z", (1, 1, 1, 1), rule="winding")
        with self.assertRaisesRegex(blurtool.BlurtoolError, "stroke->dashes"):
            blurtool.stroke_path(canvas, "M0 0 H5", (1, 1, 1, 1), dashes=[-1])
        with self.assertRaisesRegex(ValueError, "cap"):
            blurtool.stroke_path(canvas, "M0 0 H5", (1, 1, 1, 1), cap="pointy")


class Library(unittest.TestCase):
    def test_version_and_kernels(self):
        self.assertRegex(blurtool.version(), r"^\d+\.\d+\.\d+")
        self.assertTrue(blurtool.kernels())
        self.assertIn("ultraThin", blurtool.materials())
        self.assertIn("systemChromeMaterial", blurtool.materials())

    def test_a_missing_library_names_blurtool_library(self):
        environment = dict(os.environ, BLURTOOL_LIBRARY="/nonexistent/libblurtool.so.1",
                           PYTHONPATH=os.path.join(REPOSITORY, "python"))
        run = subprocess.run([sys.executable, "-c", "import blurtool"], env=environment, capture_output=True,
                             text=True)
        self.assertNotEqual(run.returncode, 0)
        self.assertIn("ImportError", run.stderr)
        self.assertIn("BLURTOOL_LIBRARY", run.stderr)


if __name__ == "__main__":
    unittest.main()
