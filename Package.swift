// swift-tools-version:6.0
import PackageDescription

// One CPU target for the whole build: pass `-Xswiftc -target-cpu -Xswiftc haswell` (see Makefile) to every
// target at once, never per module, because stdlib specialisations are shared across modules.
let package = Package(
    name: "blurtool",
    products: [
        .library(name: "Compositor", targets: ["Compositor"]),
        .library(name: "Motion", targets: ["Motion"]),
        .library(name: "Scenes", targets: ["Scenes"]),
        .library(name: "ImageCodecs", targets: ["ImageCodecs"]),
        .library(name: "SceneFormat", targets: ["SceneFormat"]),
        .library(name: "Typesetting", targets: ["Typesetting"]),
        // The C interface (include/blurtool.h) as one shared library, libblurtool.so: see BlurToolCAPI below.
        .library(name: "BlurToolCAPI", type: .dynamic, targets: ["BlurToolCAPI"]),
        .executable(name: "blurtool", targets: ["blurtool"]),
        .executable(name: "blurbench", targets: ["blurbench"]),
    ],
    targets: [
        .systemLibrary(
            name: "CJPEG",
            pkgConfig: "libjpeg",
            // Debian names libjpeg-turbo's headers libjpeg62-turbo-dev, Ubuntu libjpeg-turbo8-dev.
            providers: [.apt(["libjpeg62-turbo-dev", "libjpeg-turbo8-dev"])]
        ),
        .systemLibrary(
            name: "CPNG",
            pkgConfig: "libpng16",
            providers: [.apt(["libpng-dev", "zlib1g-dev"])]
        ),
        // Animated WebP through libwebp's WebPAnimEncoder (libwebpmux, which pulls in libwebp).
        .systemLibrary(
            name: "CWebP",
            pkgConfig: "libwebpmux",
            providers: [.apt(["libwebp-dev"])]
        ),
        // Text: FreeType rasterises outlines, HarfBuzz shapes, fontconfig finds fonts by family and character.
        .systemLibrary(name: "CFreeType", pkgConfig: "freetype2", providers: [.apt(["libfreetype-dev"])]),
        .systemLibrary(name: "CHarfBuzz", pkgConfig: "harfbuzz", providers: [.apt(["libharfbuzz-dev"])]),
        .systemLibrary(name: "CFontconfig", pkgConfig: "fontconfig", providers: [.apt(["libfontconfig-dev"])]),
        // zlib is named here because pkg-config lists it for libpng only as a private (static) dependency.
        .target(
            name: "CCodecShim", dependencies: ["CJPEG", "CPNG"],
            linkerSettings: [.linkedLibrary("z"), .linkedLibrary("isal"), .linkedLibrary("deflate")]),
        // The hot loops in C, each compiled once per x86-64 level (AVX2, AVX-512) with target attributes, so that
        // the default build, a dependent's, runs them chosen at run time: no unsafeFlags, no -target-cpu.
        .target(
            name: "CKernels",
            exclude: [
                "bilinear.inc", "composite.inc", "convolution.inc", "fixed_point.inc", "fixed_point_pairs.inc", "level.inc",
                "pyramid.inc", "quantize.inc", "resample.inc", "upsample.inc",
            ]),
        .target(name: "Compositor", dependencies: ["CKernels"]),
        // Motion maths, no pixels: timing curves, springs, animation timing, transforms interpolated by
        // decomposition (the Compositor's transforms, hence the dependency).
        .target(name: "Motion", dependencies: ["Compositor"]),
        // The scene engine over the Compositor's pixels: scenes and their renderer, animations of layers, layer
        // and photo transitions, particle emitters, and the Typesetter contract through which text arrives.
        .target(name: "Scenes", dependencies: ["Compositor", "Motion"]),
        .target(name: "ImageCodecs", dependencies: ["Compositor", "CCodecShim", "CWebP"]),
        // Scene files (JSON) read into the Scenes model; image loading is passed in, so it needs no codec.
        .target(name: "SceneFormat", dependencies: ["Compositor", "Motion", "Scenes"]),
        // The Scenes module's Typesetter made with fontconfig, HarfBuzz and FreeType, so that neither Scenes nor
        // the Compositor links a font library.
        .target(
            name: "Typesetting", dependencies: ["Compositor", "Scenes", "CFreeType", "CHarfBuzz", "CFontconfig"]),
        .target(
            name: "BlurToolCLI",
            dependencies: ["Compositor", "Motion", "Scenes", "ImageCodecs", "SceneFormat", "Typesetting"]),
        .executableTarget(name: "blurtool", dependencies: ["BlurToolCLI"]),
        // The C interface: the header and the struct layouts it promises (CBlurToolAPI), and its functions in
        // Swift with @_cdecl (BlurToolCAPI). Linked as libblurtool.so.1 with the Swift runtime inside (a C program
        // links nothing else) and only blurtool_* symbols exported (the version script). No Swift target depends on
        // it: it is tested from C and Python (`make test-capi`), through the installed header.
        .target(name: "CBlurToolAPI"),
        .target(
            name: "BlurToolCAPI",
            dependencies: ["CBlurToolAPI", "Compositor", "Scenes", "ImageCodecs", "SceneFormat", "Typesetting"],
            exclude: ["exports.map"],
            linkerSettings: [
                .unsafeFlags([
                    "-static-stdlib", "-Xlinker", "--version-script=Sources/BlurToolCAPI/exports.map", "-Xlinker",
                    "-soname=libblurtool.so.1",
                ])
            ]),
        .executableTarget(
            name: "blurbench",
            dependencies: ["Compositor", "Scenes", "ImageCodecs", "SceneFormat", "Typesetting", "TestSupport"],
            path: "Benchmarks/blurbench"),
        // A seeded fuzzer for scene files (`make fuzz-scenes`), run in process.
        .executableTarget(
            name: "scenefuzz",
            dependencies: ["Compositor", "Scenes", "ImageCodecs", "SceneFormat", "Typesetting", "TestSupport"],
            path: "Tools/scenefuzz"),
        // CWebP for libwebp's animation decoder, which reads back the animated WebPs the tests write.
        .target(name: "TestSupport", dependencies: ["Compositor", "CWebP"], path: "Tests/TestSupport"),
        // XCTest's side of the tests' oracles (skip, or fail under BLURTOOL_REQUIRE_ORACLES=1): tests only.
        .target(name: "OracleSupport", path: "Tests/OracleSupport"),
        // CKernels to ask the CPU's levels directly, not only through the library's answer; Motion for
        // Transform3DTests, whose decomposition and interpolation tests sit with its matrix tests.
        .testTarget(name: "CompositorTests", dependencies: ["Compositor", "TestSupport", "CKernels", "Motion"]),
        .testTarget(name: "MotionTests", dependencies: ["Motion", "Compositor", "TestSupport"]),
        .testTarget(name: "ScenesTests", dependencies: ["Scenes", "Motion", "Compositor", "TestSupport", "OracleSupport"]),
        // CCodecShim and CWebP for the animation tests: zlib to read frames' filter bytes, libwebp's demuxer.
        .testTarget(
            name: "ImageCodecsTests",
            dependencies: ["ImageCodecs", "Compositor", "TestSupport", "OracleSupport", "CCodecShim", "CWebP"]),
        .testTarget(
            name: "TypesettingTests",
            dependencies: ["Typesetting", "Scenes", "Compositor", "TestSupport", "OracleSupport"]),
        .testTarget(
            name: "SceneFormatTests",
            dependencies: [
                "SceneFormat", "ImageCodecs", "Compositor", "Motion", "Scenes", "Typesetting", "TestSupport",
                "OracleSupport",
            ]),
        // The README's code blocks, compiled and run.
        .testTarget(
            name: "ExamplesTests",
            dependencies: [
                "Compositor", "Motion", "Scenes", "ImageCodecs", "SceneFormat", "Typesetting", "TestSupport",
            ]),
        .testTarget(
            name: "BlurToolCLITests",
            dependencies: [
                "BlurToolCLI", "ImageCodecs", "Compositor", "Motion", "Scenes", "SceneFormat", "TestSupport",
                "OracleSupport",
            ]),
    ]
)

// Fuzz targets (Fuzz/, one libFuzzer executable per parser), in the package only when `make fuzz` sets
// BLURTOOL_FUZZ=1: they are built with -sanitize=fuzzer,address, which plain `swift build` and `swift test`
// should neither pay for nor see. FuzzDriver declares libFuzzer's LLVMFuzzerRunDriver, which each target's
// top-level code calls (SwiftPM makes that code the executable's main, so libFuzzer's main cannot be used).
if Context.environment["BLURTOOL_FUZZ"] == "1" {
    let fuzzTargets: [(name: String, dependencies: [Target.Dependency])] = [
        ("FuzzJPEG", ["ImageCodecs"]), ("FuzzPNG", ["ImageCodecs"]), ("FuzzEXIF", ["ImageCodecs"]),
        ("FuzzPNGChunks", ["ImageCodecs"]), ("FuzzScene", ["SceneFormat", "Scenes", "Compositor", "Typesetting"]),
        ("FuzzPath", ["Compositor"]), ("FuzzSVG", ["SceneFormat", "Scenes", "Compositor"]),
    ]
    package.targets.append(.target(name: "FuzzDriver", path: "Fuzz/FuzzDriver"))
    package.targets += fuzzTargets.map { target in
        .executableTarget(
            name: target.name, dependencies: target.dependencies + ["FuzzDriver"], path: "Fuzz/\(target.name)")
    }
}
