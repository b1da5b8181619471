# One place for set-up, build, run, test and benchmark. `make demo` and `make test` are the README's two
# commands; both install the system packages they need first.

SWIFT ?= swift
# A release build for this machine passes one CPU target to the whole build (never per module: stdlib
# specialisations are shared across modules): `native`, the CPU building it (AVX-512 on the project's
# machines, where the 16-lane kernels run in one register). `make release CPU=haswell` targets AVX2;
# `make release PORTABLE=1` leaves the flag out for a binary that runs on any x86-64. BLURTOOL_TARGET_CPU lets
# blurbench say which build it is.
CPU ?= native
ifeq ($(PORTABLE),)
CPU_FLAGS := -Xswiftc -target-cpu -Xswiftc $(CPU) -Xcc -march=$(CPU) -Xswiftc -DBLURTOOL_TARGET_CPU
endif
# The Swift runtime linked statically: a process then starts in about 2 ms instead of 4 (the dynamic loader
# no longer resolves libswiftCore's symbols at every start), which counts when a script runs blurtool per photo.
RELEASE := $(SWIFT) build -c release --static-swift-stdlib $(CPU_FLAGS)
BLURTOOL := .build/release/blurtool
# Text: FreeType rasterises, HarfBuzz shapes, fontconfig finds fonts; Inter is the UI face, DejaVu Sans the
# fallback (and the face for Hebrew and Arabic), Quicksand the rounded design, Material Icons the symbols.
APT_PACKAGES := pkg-config libjpeg62-turbo-dev libpng-dev zlib1g-dev libisal-dev libdeflate-dev libwebp-dev \
	libfreetype-dev libharfbuzz-dev libfontconfig-dev fonts-inter fonts-dejavu-core fonts-quicksand \
	fonts-material-design-icons-iconfont
# The tests' oracles: ffmpeg decodes our y4m and draws xfade's frames to compare with ours, headless Chromium
# screenshots the contact sheets (those tests skip without them, so a machine that lacks one would pass without
# checking them); util-linux's `script` gives the batch's progress bar a terminal; rsvg-convert (cairo) draws the
# paths the path layers are compared with.
TEST_APT_PACKAGES := ffmpeg python3-venv valgrind chromium bsdutils librsvg2-bin
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

PHONY_CAPI := capi install uninstall test-capi python-deps valgrind-capi bench-capi bench-python
.PHONY: $(PHONY_CAPI) test-cpu-targets deps test-deps oracles build release demo docs test test-release test-asan test-tsan fuzz fuzz-cli fuzz-scenes bench robustness clean format peers-setup bench-peers bench-peers-quick bench-end-to-end bench-resample bench-composite bench-animate bench-text bench-paths bench-transition bench-perspective bench-portable bench-batch test-slurm

deps test-deps: PACKAGES = $(if $(filter test-deps,$@),$(TEST_APT_PACKAGES),$(APT_PACKAGES))
deps test-deps:
	@missing=""; for p in $(PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
		echo "installing:$$missing"; \
		$(SUDO) apt-get update -qq && $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing \
		|| $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$(echo $$missing | sed 's/libjpeg62-turbo-dev/libjpeg-turbo8-dev/'); \
	fi

build: deps
	$(SWIFT) build

release: deps
	$(RELEASE)

# Blurs the bundled photo with the thin material; the output lands in out/.
demo: release
	@mkdir -p out
	$(BLURTOOL) fixtures/coffee.jpg --material thin -o out/coffee-thin.jpg --verbose
	$(BLURTOOL) compose fixtures/review-screen.json -o out/review-screen.png --verbose
	$(BLURTOOL) compose fixtures/flight-summary.json -o out/flight-summary.png --verbose
	$(BLURTOOL) animate fixtures/review-entrance.json -o out/review-entrance.png --verbose
	@echo "wrote out/coffee-thin.jpg, out/review-screen.png, out/flight-summary.png and out/review-entrance.png (animated)"

# The README's pictures, from the project's own fixtures: the review screen as a still at 1.5 pixels per point
# (its labels stay legible; about 50 KB of JPEG) and its entrance at one pixel per point and 20 fps, a few
# hundred kilobytes; a strip of the flight summary's transitions at 0, 0.15, 0.3 and 1 s, drawn by
# docs/flight-transitions-strip.json from those frames.
docs: release
	@mkdir -p docs
	$(BLURTOOL) animate fixtures/review-screen.json --at 0 --scale 1.5 -q 85 -o docs/review-screen.jpg
	$(BLURTOOL) animate fixtures/review-entrance.json --scale 1 --fps 20 -o docs/review-entrance.png
	@mkdir -p out/strip
	for t in 0 0.15 0.3 1; do \
		$(BLURTOOL) animate fixtures/flight-transitions.json --at $$t --scale 1 -o out/strip/at-$$t.png || exit 1; \
	done
	$(BLURTOOL) compose docs/flight-transitions-strip.json -q 85 -o docs/flight-transitions.jpg
	$(BLURTOOL) animate fixtures/paths.json --at 1 -o docs/paths.png

# The suites are XCTest; Swift Testing is off so the run ends on XCTest's "Executed N tests" line, after a line
# naming every test that skipped for want of its oracle (ffmpeg, a font, Pillow). .ci/run sets
# BLURTOOL_REQUIRE_ORACLES=1, under which a missing oracle fails its test instead.
test: deps test-deps oracles python-deps
	@mkdir -p .build
	@{ $(SWIFT) test --disable-swift-testing; echo $$? > .build/test-status; } 2>&1 | tee .build/test-output.log
	@$(MAKE) --no-print-directory test-capi || echo 1 > .build/test-status
	@$(MAKE) --no-print-directory test-cpu-targets || echo 1 > .build/test-status
	@python3 Tests/oracle_summary.py .build/test-output.log
	@exit $$(cat .build/test-status)

# Pillow for the text oracle test (the version the peer benchmarks pin), in a small venv of its own.
ORACLE_PILLOW := $(shell grep '^pillow==' Benchmarks/peers/requirements.txt)
oracles:
	@.venv-oracles/bin/python -c 'import PIL' 2>/dev/null || { \
		echo "making .venv-oracles ($(ORACLE_PILLOW))"; rm -rf .venv-oracles; \
		python3 -m venv .venv-oracles && .venv-oracles/bin/pip install -q --disable-pip-version-check $(ORACLE_PILLOW); }

# The C interface: libblurtool.so.1 (the Swift runtime inside, only blurtool_* exported), include/blurtool.h and
# blurtool.pc. `make install PREFIX=…` installs them with the blurtool binary; `make uninstall PREFIX=…` removes
# exactly what install wrote (listed in PREFIX/share/blurtool/installed).
PREFIX ?= /usr/local
CAPI_LIBRARY := .build/release/libBlurToolCAPI.so
VERSION := $(shell sed -n 's/.*string = "\(.*\)"/\1/p' Sources/Compositor/LibraryVersion.swift)
INSTALLED := lib/libblurtool.so.1 lib/libblurtool.so include/blurtool.h lib/pkgconfig/blurtool.pc bin/blurtool \
	share/blurtool/installed
capi: deps
	$(RELEASE) --product BlurToolCAPI

install: release capi
	install -d $(PREFIX)/lib/pkgconfig $(PREFIX)/include $(PREFIX)/bin $(PREFIX)/share/blurtool
	install -m 755 $(CAPI_LIBRARY) $(PREFIX)/lib/libblurtool.so.1
	@# Swift's DWARF 5 debug information is left out: Debian's valgrind cannot read it.
	strip --strip-debug $(PREFIX)/lib/libblurtool.so.1
	ln -sf libblurtool.so.1 $(PREFIX)/lib/libblurtool.so
	install -m 644 include/blurtool.h $(PREFIX)/include/blurtool.h
	sed -e 's|@PREFIX@|$(abspath $(PREFIX))|' -e 's|@VERSION@|$(VERSION)|' blurtool.pc.in > $(PREFIX)/lib/pkgconfig/blurtool.pc
	install -m 755 $(BLURTOOL) $(PREFIX)/bin/blurtool
	printf '%s\n' $(INSTALLED) > $(PREFIX)/share/blurtool/installed

uninstall:
	@[ -f $(PREFIX)/share/blurtool/installed ] || { echo "make uninstall: no blurtool installed in $(PREFIX)"; exit 1; }
	cd $(PREFIX) && rm -f $$(cat share/blurtool/installed)
	-rmdir $(PREFIX)/share/blurtool $(PREFIX)/lib/pkgconfig 2>/dev/null

# The C interface tested from C and Python against an installed prefix (`make test` runs this): Tests/C/run.sh
# builds a test program and examples/c through pkg-config and compares every call with the blurtool command's
# output; Tests/Python runs the Python module (python/) on numpy arrays in .venv-python.
CAPI_PREFIX := .build/capi-prefix
PYTHON_VENV := .venv-python
test-capi: deps python-deps
	$(MAKE) --no-print-directory install PREFIX=$(CAPI_PREFIX) > .build/capi-install.log
	Tests/C/run.sh $(CAPI_PREFIX) .build/capi-test
	BLURTOOL_LIBRARY=$(abspath $(CAPI_PREFIX))/lib/libblurtool.so.1 PYTHONPATH=python \
		$(PYTHON_VENV)/bin/python -m unittest discover -s Tests/Python
	$(MAKE) --no-print-directory uninstall PREFIX=$(CAPI_PREFIX) > /dev/null
	@[ -z "$$(find $(CAPI_PREFIX) -type f -o -type l)" ] || { echo "make uninstall left files in $(CAPI_PREFIX)"; exit 1; }

# The kernels' x86-64-v3 and v4 copies compiled as `make release CPU=…` compiles them for the CPUs people pass (a
# few seconds, where a whole release build per CPU would take minutes): a CPU with features beyond a level's once
# broke them (see Sources/CKernels/levels.h).
CHECKED_CPUS ?= haswell znver3 skylake-avx512 native
SWIFT_CLANG = $(dir $(realpath $(shell command -v $(SWIFT))))clang
test-cpu-targets:
	@for cpu in $(CHECKED_CPUS); do for level in v3 v4; do \
		$(SWIFT_CLANG) -O2 -march=$$cpu -ISources/CKernels/include -c Sources/CKernels/kernels_x86_64_$$level.c \
			-o /dev/null || { echo "CKernels' $$level copy does not compile for CPU=$$cpu"; exit 1; }; \
	done; done; echo "CKernels' level copies compile for CPU=$(CHECKED_CPUS)"

python-deps:
	@$(PYTHON_VENV)/bin/python -c 'import numpy' 2>/dev/null || { \
		echo "making $(PYTHON_VENV) (numpy)"; rm -rf $(PYTHON_VENV); \
		python3 -m venv $(PYTHON_VENV) && $(PYTHON_VENV)/bin/pip install -q --disable-pip-version-check numpy; }

# Valgrind's memcheck over the C test program (no error, nothing definitely lost), and the renderer example's
# heap: 2 frames and 12 frames of its loop must make the same number of allocations (the loop allocates nothing
# after its first frame).
valgrind-capi: test-deps
	$(MAKE) --no-print-directory install PREFIX=$(CAPI_PREFIX) > .build/capi-install.log
	Tests/C/run.sh $(CAPI_PREFIX) .build/capi-test > /dev/null
	Tests/C/valgrind.sh $(CAPI_PREFIX) .build/capi-test

# The C call's cost against the same Swift call (a region blur, trial by trial): the target is within 5 %.
bench-capi: release
	$(MAKE) --no-print-directory install PREFIX=$(CAPI_PREFIX) > .build/capi-install.log
	python3 Benchmarks/capi/c_against_swift.py --library-prefix $(CAPI_PREFIX) $(BENCH_ARGS)

# The Python module against OpenCV and Pillow-SIMD on one 12 MP array, one thread, trial by trial (the targets:
# σ 2 at least 1.3x cv2.GaussianBlur, σ 30 at least 4x Pillow-SIMD), and a Python call's cost over C's.
bench-python: release peers-setup
	$(MAKE) --no-print-directory install PREFIX=$(CAPI_PREFIX) > .build/capi-install.log
	@mkdir -p .build/capi-bench
	cc -std=c99 -O2 Benchmarks/capi/region_blur.c -I$(CAPI_PREFIX)/include -L$(CAPI_PREFIX)/lib -lblurtool \
		-Wl,-rpath,$(abspath $(CAPI_PREFIX))/lib -o .build/capi-bench/region_blur
	BLURTOOL_LIBRARY=$(abspath $(CAPI_PREFIX))/lib/libblurtool.so.1 PYTHONPATH=python \
		$(PEERS_PY) Benchmarks/peers/peer_python.py --peer opencv --overhead .build/capi-bench/region_blur $(BENCH_ARGS)
	BLURTOOL_LIBRARY=$(abspath $(CAPI_PREFIX))/lib/libblurtool.so.1 PYTHONPATH=python \
		.venv-simd/bin/python Benchmarks/peers/peer_python.py --peer pillow-simd $(BENCH_ARGS)

test-release: deps test-deps
	$(SWIFT) test --disable-swift-testing -c release -Xswiftc -enable-testing $(CPU_FLAGS)

# The suites under the address and thread sanitizers, each in a build directory of its own (switching flags in
# .build would rebuild everything each time). A refused allocation must come back as nil under ASan as it does
# without it (CheckedAllocationTests asks for 4 TiB), not abort the run; leak checking is off because XCTest
# keeps every test case object (and the images in its properties) alive to the end. TSan runs the tests that
# start threads (the whole suite under it takes many minutes on two cores).
TSAN_TESTS ?= ParallelTests|BlurEngineTests|SeparableBlurRowsTests|PyramidBlurTests|PyramidKernelTests|FixedPointBlurTests|CompositeTests.testThreadCounts|AffineWarpTests|ResamplerTests.testBitIdentical|PixelMemoryTests|SceneRendererTests|AnimationRendererTests|TypesettingTests|TextLayerTests|PerspectiveWarpTests|PageCurlTests|ParticleEmitterTests|Animated3DFrameTests|KernelChoiceTests
# The test that runs the tool under `ulimit -v` is skipped there: ASan reserves terabytes of shadow memory at
# start-up, which no such limit allows. So is the one that makes the tool fault on purpose (SIGSEGV, SIGBUS, …)
# to see its clean-up and its end by the signal: ASan takes those signals over and exits with status 1.
test-asan: deps
	ASAN_OPTIONS=allocator_may_return_null=1:detect_leaks=0 $(SWIFT) test --disable-swift-testing --sanitize=address \
		--scratch-path .build/asan --skip HardeningTests.testFramesPastTheAddressSpaceLimitAreRefusedBeforeAllocation \
		--skip AnimateCommandTests.testAFaultLeavesNoOutputAndStillEndsTheProcessByItsSignal

test-tsan: deps
	$(SWIFT) test --disable-swift-testing --sanitize=thread --scratch-path .build/tsan --filter '$(TSAN_TESTS)'

# The seeded command-line fuzzer: hostile arguments, special files and scene files against the built binary, each
# run capped at 20 s and 4 GiB; it lists every crash, hang, stray exit status, multi-line or raw stderr, stdout
# garbage and leftover temporary file, with the command line that reproduces it (`ONLY=N` reruns case N). A quarter
# of the cases animate the fixtures mutated (Tests/Fuzz/fixture_mutator.py), 15 % are `transition`s of every style;
# a case past 20 s runs again under the documented bound (300 s): slow if it ends, a hang if not. For the release
# binary: make fuzz-cli FUZZ_BINARY=.build/release/blurtool COUNT=10000
SEED ?= 1
COUNT ?= 300
FUZZ_BINARY ?= .build/debug/blurtool
fuzz-cli: build
	nice -n 10 python3 Tests/Fuzz/fuzz_cli.py --binary $(FUZZ_BINARY) --seed $(SEED) --count $(COUNT) \
		$(if $(ONLY),--only $(ONLY) --keep)

bench: release
	.build/release/blurbench $(BENCH_ARGS)

# The default build (no CPU flags: what a package depending on the library gets) beside the native one, in a
# scratch path of its own so .build/release stays native, both blurbenches run alternately on the same
# arguments; prints each benchmark's medians and the default/native ratio. PORTABLE_ARGS sets the rounds.
PORTABLE_BENCH_ARGS ?= --filter blur-exact-sigma2,blur-fast-sigma10,blur-fast-sigma30,resize-fill,rotate30,composite-over \
	--threads 1 --trials 11
PORTABLE_ARGS ?= --rounds 3
bench-portable: release
	nice -n 10 $(SWIFT) build -c release --static-swift-stdlib --scratch-path .build/portable --product blurbench
	python3 Benchmarks/bench_portable.py --native .build/release/blurbench \
		--default .build/portable/release/blurbench $(PORTABLE_ARGS) -- $(or $(BENCH_ARGS),$(PORTABLE_BENCH_ARGS))

PEERS_PY := .venv-peers/bin/python

# Peers (OpenCV, libvips, Pillow, Pillow-SIMD) in two venvs: see Benchmarks/peers/README.md.
peers-setup:
	bash Benchmarks/peers/setup_venvs.sh

bench-peers: release peers-setup
	@mkdir -p Benchmarks/results
	$(PEERS_PY) Benchmarks/peers/peer_blur.py --json Benchmarks/results/peers.json $(PEER_ARGS)

bench-peers-quick: release peers-setup
	$(PEERS_PY) Benchmarks/peers/peer_blur.py --quick $(PEER_ARGS)

bench-end-to-end: release peers-setup
	$(PEERS_PY) Benchmarks/peers/peer_end_to_end.py $(PEER_ARGS)

bench-resample: release peers-setup
	$(PEERS_PY) Benchmarks/peers/peer_resample.py $(PEER_ARGS)

bench-composite: release peers-setup
	$(PEERS_PY) Benchmarks/peers/peer_composite.py $(PEER_ARGS)

# The review entrance, 61 frames at 1170x2532, against skia-python drawing and Pillow's animated PNG.
bench-animate: release peers-setup
	$(PEERS_PY) Benchmarks/peers/peer_animate.py $(PEER_ARGS)

# A seeded 2,000-word paragraph in Inter at 17 px into 1170 px, cold: Pillow's multiline_text and skia-python's
# drawTextBlob against ours (blurbench text-paragraph-cold), one thread each.
bench-text: release peers-setup
	$(PEERS_PY) Benchmarks/peers/peer_text.py $(PEER_ARGS)

# Photo transitions against ffmpeg's xfade (needs ffmpeg, no Python package: the system python3 runs it).
bench-transition: release
	@mkdir -p Benchmarks/results
	python3 Benchmarks/peers/peer_transition.py --json Benchmarks/results/peer_transition.json $(PEER_ARGS)

# 500 icons filled and stroked on a phone canvas and a 10,000-segment outline, against skia-python and pycairo,
# one thread, trial by trial (Benchmarks/peers/README.md › Paths).
bench-paths: release peers-setup
	@mkdir -p Benchmarks/results
	$(PEERS_PY) Benchmarks/peers/peer_paths.py --json Benchmarks/results/peer_paths.json $(PEER_ARGS)

bench-perspective: release peers-setup
	@mkdir -p Benchmarks/results
	$(PEERS_PY) Benchmarks/peers/peer_perspective.py --json Benchmarks/results/peer_perspective.json $(PEER_ARGS)

# `blurtool batch` over 200 12 MP photos against GNU parallel over vipsthumbnail + vips gaussblur, in one run
# (BATCH_ARGS="--resume-check 10000" or "--memory-mix" for the other two targets); installs libvips-tools,
# parallel and time if missing.
bench-batch: release
	@missing=""; for p in libvips-tools parallel time; do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	[ -z "$$missing" ] || { $(SUDO) apt-get update -qq && $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; }
	@mkdir -p Benchmarks/results
	python3 Benchmarks/peers/peer_batch.py --json Benchmarks/results/peer_batch.json $(BATCH_ARGS)

# The batch as a Slurm array job on a one-node cluster started on this machine (as root: it installs slurm-wlm's
# daemons and munge, starts munged, slurmctld and slurmd, and stops them at the end); see README › Past one machine.
test-slurm: release
	$(SUDO) Tests/Slurm/run.sh $(BLURTOOL)

# The corpus contract from shared/corpus/README.md.
robustness: release
	../shared/tools/robustness.sh -q -x ../shared/corpus/EXPECTED.tsv \
		"$(abspath $(BLURTOOL)) {in} --material thin -o {out}" ../shared/corpus

# The seeded scene-file fuzzer (Tools/scenefuzz): generated and damaged scenes, and the animated fixtures with
# their curves, springs, keyframes, timing, text, emitters, 3D transforms, curls and transitions mutated, read and
# drawn in process; any trap leaves the case in .build/scenefuzz/current.json, a case past 15 s (the default still's
# bound) is reported SLOW and kept. The same SEED gives the same cases.
SCENE_COUNT ?= 2000
fuzz-scenes: release
	.build/release/scenefuzz --seed $(SEED) --count $(SCENE_COUNT) --state .build/scenefuzz --images fixtures

# Sources follow .swift-format (4 spaces, 120 columns), with the toolchain's own formatter.
format:
	$(SWIFT) format --in-place --configuration .swift-format --recursive Sources Tests Benchmarks Tools Package.swift

clean:
	rm -rf .build out

# Fuzzing with libFuzzer and AddressSanitizer: `make fuzz TARGET=jpeg SECONDS=300`. TARGET is one of
#   jpeg       JPEG decode: markers, ICC, EXIF, DCT scaling, strict then lenient (FuzzJPEG)
#   png        PNG decode: chunk walk, iCCP inflate, libpng, premultiply, strict then lenient (FuzzPNG)
#   exif       the EXIF orientation reader on any bytes (FuzzEXIF; seeds are the corpus's EXIF blocks)
#   pngchunks  the Swift PNG chunk walk alone: IHDR, iCCP, eXIf, lying lengths (FuzzPNGChunks)
#   scene      scene files: JSON parser and scene reader, images from a stub loader (FuzzScene)
#   path       SVG path data parsed and filled through hostile transforms (FuzzPath; seeds Fuzz/path-seeds)
#   svg        SVG files: the XML reader and the shapes subset, drawn into a small scene (FuzzSVG)
# The targets exist only with BLURTOOL_FUZZ=1 (Package.swift) and build in .build/fuzz, so plain builds stay
# sanitizer-free. Seeds are read in place from ../shared/corpus (SHARED_CORPUS) and fixtures/; what the fuzzer
# learns stays in .build/fuzz/corpus/TARGET, crash inputs land in .build/fuzz/artifacts/ (each becomes a test).
# Decoders are limited to 4 megapixels inside the targets. lld links them (gold stops with an internal error
# on the sanitized objects); Swift's backtracer is off so that libFuzzer and ASan report crashes and save the
# input. libjpeg, libpng and zlib are the system's, not instrumented: coverage guides through our code only.
TARGET ?= jpeg
SECONDS ?= 60
# From a worktree elsewhere: make fuzz SHARED_CORPUS=/path/to/shared/corpus
SHARED_CORPUS ?= ../shared/corpus
FUZZ_PRODUCT_jpeg := FuzzJPEG
FUZZ_PRODUCT_png := FuzzPNG
FUZZ_PRODUCT_exif := FuzzEXIF
FUZZ_PRODUCT_pngchunks := FuzzPNGChunks
FUZZ_PRODUCT_scene := FuzzScene
FUZZ_PRODUCT_path := FuzzPath
FUZZ_PRODUCT_svg := FuzzSVG
FUZZ_SEEDS_jpeg := $(SHARED_CORPUS) fixtures
FUZZ_SEEDS_png := $(SHARED_CORPUS)
FUZZ_SEEDS_exif := .build/fuzz/seeds/exif
FUZZ_SEEDS_pngchunks := $(SHARED_CORPUS)
FUZZ_SEEDS_scene := fixtures
FUZZ_SEEDS_path := Fuzz/path-seeds
FUZZ_SEEDS_svg := Fuzz/svg-seeds
FUZZ_FLAGS_scene := -dict=Fuzz/scene.dict
FUZZ_PRODUCT := $(FUZZ_PRODUCT_$(TARGET))

fuzz: deps
	@[ -n "$(FUZZ_PRODUCT)" ] || \
		{ echo "make fuzz: unknown TARGET=$(TARGET) (jpeg, png, exif, pngchunks, scene, path, svg)"; exit 64; }
	BLURTOOL_FUZZ=1 nice -n 10 $(SWIFT) build -c debug --scratch-path .build/fuzz --product $(FUZZ_PRODUCT) \
		-Xswiftc -sanitize=fuzzer,address -Xcc -fsanitize=fuzzer-no-link,address -Xswiftc -use-ld=lld
	@mkdir -p .build/fuzz/corpus/$(TARGET) .build/fuzz/artifacts
	@[ "$(TARGET)" != exif ] || python3 Fuzz/exif-seeds.py .build/fuzz/seeds/exif $(SHARED_CORPUS) fixtures
	SWIFT_BACKTRACE=enable=no nice -n 10 .build/fuzz/debug/$(FUZZ_PRODUCT) -rss_limit_mb=2048 -timeout=10 \
		-max_len=262144 -max_total_time=$(SECONDS) -print_final_stats=1 \
		-artifact_prefix=.build/fuzz/artifacts/$(TARGET)- \
		$(FUZZ_FLAGS_$(TARGET)) .build/fuzz/corpus/$(TARGET) $(FUZZ_SEEDS_$(TARGET))
