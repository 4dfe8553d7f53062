// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "Backdrop",
    products: [
        .library(name: "Backdrop", targets: ["Backdrop"]),
        .library(name: "BackdropCLI", targets: ["BackdropCLI"]),
        // Golden-image assertions for Swift Testing and XCTest suites.
        .library(name: "BackdropTesting", targets: ["BackdropTesting"]),
        // `backdrop preview`'s page, API and HTTP server, as a library for Fuzz/ (backdrop-preview is its command).
        .library(name: "BackdropPreview", targets: ["BackdropPreview"]),
        .executable(name: "backdrop", targets: ["backdrop"]),
        // `backdrop preview`'s server, a program of its own: the page, the server's threads and its limits stay out
        // of the one-command processes.
        .executable(name: "backdrop-preview", targets: ["backdrop-preview"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        // `swift package generate-documentation --target LAYER`: a command plugin, built only when the command runs.
        // scripts/docs documents the whole library without it (the plugin leaves re-exported modules out).
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
        // The preview server's HTTP/1.1 (NIOCore, NIOPosix, NIOHTTP1): only the BackdropPreview target and the
        // backdrop-preview program build and link it; the library, `backdrop` and scripts/demo do not.
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
    ],
    targets: [
        // libpng behind a C boundary: setjmp/longjmp never cross a Swift frame. PNG's common cases (8-bit RGB and
        // RGBA) without libpng, inflated and deflated by libdeflate (Debian libdeflate-dev); large pictures inflated
        // by ISA-L's igzip (Debian libisal-dev), which streams, on a second thread while the first unfilters the rows.
        // The own encoder of `--compression default` and `fast` for 8-bit pictures (backdrop_png_fast_encoder.h),
        // whose AVX2 loops ask CVectorKernels whether the CPU runs them.
        // A ZIP member's raw DEFLATE stream inflated by libdeflate too, for BackdropImageIO's ZipArchive (.sketch files).
        // glibc's malloc settings for the CLI's one-command processes: fewer page faults (backdrop_memory.h).
        .target(name: "CMemory"),
        // Temporary output files removed when a signal stops the process before their rename.
        .target(name: "CTemporaryFiles"),
        .target(
            name: "CLibPNG",
            dependencies: ["CVectorKernels"],
            linkerSettings: [.linkedLibrary("png16"), .linkedLibrary("deflate"), .linkedLibrary("isal")]
        ),
        // libjpeg-turbo (Debian libjpeg62-turbo-dev) behind a C boundary like CLibPNG's: its longjmp stays in C.
        .target(
            name: "CJPEG",
            linkerSettings: [.linkedLibrary("jpeg")]
        ),
        // libwebp's still-picture decoder and encoder, its demuxer to read the ICCP chunk and its muxer to write one
        // (Debian libwebp-dev).
        .target(
            name: "CWebP",
            linkerSettings: [.linkedLibrary("webp"), .linkedLibrary("webpdemux"), .linkedLibrary("webpmux")]
        ),
        // libheif's HEIF reading, with its HEVC decoder libde265 (Debian libheif-dev). Not linked: libheif.so.1 is
        // loaded on the first HEIF input (dlopen, in glibc's libc), so its codecs cost the other commands nothing at
        // start.
        .target(name: "CHEIF"),
        // An embedded ICC profile's colours converted to sRGB by Little CMS (Debian liblcms2-dev).
        .target(
            name: "CLittleCMS",
            linkerSettings: [.linkedLibrary("lcms2")]
        ),
        // A parallel-for over row bands on OpenMP's runtime (Debian libomp-dev), called through its entry points:
        // no -fopenmp, which SwiftPM would refuse in a versioned dependency.
        .target(
            name: "COpenMP",
            linkerSettings: [.linkedLibrary("omp5")]
        ),
        // Vector code the Swift compiler cannot emit without unsafe flags: lane conversions for every CPU, and the
        // hot loops in the CPU's own instructions (AVX2 and FMA), chosen at run time with the same output bit for bit.
        .target(name: "CVectorKernels"),
        // The library in layers, each target depending only on those below it, so the compiler keeps the order
        // (docs/layout.md draws it): image I/O → rendering → scenes and cost → calibration → golden testing →
        // reports. A type one layer lends another is `package`, never `public` unless it is the library's API.
        // Pixel buffers, PNG, JPEG, WebP and HEIF decoding, PNG encoding, colour rules, input files and atomic writes, the one error type.
        .target(
            name: "BackdropImageIO",
            dependencies: ["CLibPNG", "CJPEG", "CWebP", "CHEIF", "CLittleCMS", "CTemporaryFiles"]
        ),
        // Effects, their GPU passes and how plans run on the CPU: the Stage executor, Apple's ImageEffects.
        .target(
            name: "BackdropRendering",
            dependencies: ["BackdropImageIO", "COpenMP", "CVectorKernels"]
        ),
        // Scenes and their planner, devices and the run-time cost model, the render request every front end decodes.
        .target(
            name: "BackdropScenes",
            dependencies: ["BackdropRendering"]
        ),
        // The cost model's evidence and fit: seed figures, case studies, device evidence, the fit and the interval
        // recomputed (the run-time model stores their results; tests hold the two equal).
        .target(
            name: "BackdropCalibration",
            dependencies: ["BackdropScenes"]
        ),
        // Golden testing: image differences, tolerances, manifests, shards, their artifacts and summaries, the
        // review (its script and style sheet are GoldenReviewPage's literals, which scripts/lint-web lints).
        .target(
            name: "BackdropGolden",
            dependencies: ["BackdropScenes"]
        ),
        // Records (JSON), tables, SVG charts and timelines, the model report and the report site.
        .target(
            name: "BackdropReports",
            dependencies: ["BackdropCalibration", "BackdropGolden"]
        ),
        // `import Backdrop`: every layer, re-exported (Backdrop.swift), and the DocC catalog.
        .target(
            name: "Backdrop",
            dependencies: [
                "BackdropImageIO", "BackdropRendering", "BackdropScenes", "BackdropCalibration", "BackdropGolden",
                "BackdropReports",
            ]
        ),
        // `backdrop preview`: the page, its HTTP API, and its HTTP/1.1 server on SwiftNIO (HTTP/), with the limits
        // on lines, heads, bodies, idle connections and held answers of HTTPLimits. NIO is built for this target
        // alone (its clean build time is in docs/preview.md).
        // The page's HTML, CSS and JavaScript are files in Page/ (linted by scripts/lint-web), copied into the
        // Backdrop_BackdropPreview.resources bundle that scripts/install puts beside backdrop-preview.
        .target(
            name: "BackdropPreview",
            dependencies: [
                "Backdrop",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ],
            resources: [.copy("Page")]
        ),
        // The commands, as a library: the executable is one line, and Fuzz/ can drive the option parsing.
        .target(
            name: "BackdropCLI",
            dependencies: [
                "Backdrop", "CMemory",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(
            name: "backdrop",
            dependencies: ["BackdropCLI"]
        ),
        // The preview server's command; `backdrop preview` runs it (it sits beside `backdrop` in the build folder).
        .executableTarget(
            name: "backdrop-preview",
            dependencies: [
                "BackdropCLI", "BackdropPreview", .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .target(
            name: "BackdropTesting",
            dependencies: ["Backdrop"]
        ),
        // What the two test targets share: fixture paths, the CLI runner, generated pictures.
        .target(
            name: "BackdropTestSupport",
            dependencies: ["Backdrop"],
            path: "Tests/BackdropTestSupport"
        ),
        // Unit tests: the library alone (and its kernels' stated limits), no fixture files, no binary.
        .testTarget(
            name: "BackdropUnitTests",
            dependencies: [
                "Backdrop", "BackdropTestSupport", "CHEIF", "CLibPNG", "CLittleCMS", "CVectorKernels", "CWebP",
            ]
        ),
        // End-to-end tests: the pictures of Tests/Fixtures, and the real binary (a dependency so that `swift test`
        // builds it). Unoptimised even in release: they drive the binary and the library, which are optimised, and
        // their own code is glue. Optimising it was the release build's last 131 s on one core (SIL optimisation
        // 62 s); unoptimised it compiles in 78 s, and the tests run 170 s rather than 161 s. SwiftPM refuses unsafe
        // flags in the targets a dependency's products build; a test target is in no product, and
        // scripts/check-consumers builds Backdrop by version with this manifest (CI), so that stays checked.
        .testTarget(
            name: "BackdropEndToEndTests",
            dependencies: ["Backdrop", "BackdropTesting", "BackdropTestSupport", "backdrop", "backdrop-preview"],
            swiftSettings: [.unsafeFlags(["-Onone"], .when(configuration: .release))]
        ),
    ],
    swiftLanguageModes: [.v6]
)
