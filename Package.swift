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
        // `swift package generate-documentation`: a command plugin, built only when the command runs.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        // libpng behind a C boundary: setjmp/longjmp never cross a Swift frame. PNG's common cases (8-bit RGB and
        // RGBA) without libpng, inflated and deflated by libdeflate (Debian libdeflate-dev).
        // glibc's malloc settings for the CLI's one-command processes: fewer page faults (backdrop_memory.h).
        .target(name: "CMemory"),
        // Temporary output files removed when a signal stops the process before their rename.
        .target(name: "CTemporaryFiles"),
        .target(
            name: "CLibPNG",
            linkerSettings: [.linkedLibrary("png16"), .linkedLibrary("deflate")]
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
        .target(
            name: "Backdrop",
            dependencies: ["CLibPNG", "COpenMP", "CTemporaryFiles", "CVectorKernels"]
        ),
        // `backdrop preview`: the page, its HTTP API, and a small bounded HTTP/1.1 server of its own (HTTP/): no
        // dependency offered limits on lines, headers, bodies and idle connections without SwiftNIO's build time.
        // The page's HTML, CSS and JavaScript are files in Page/ (linted by scripts/lint-web), copied into the
        // Backdrop_BackdropPreview.resources bundle that scripts/install puts beside backdrop-preview.
        .target(
            name: "BackdropPreview",
            dependencies: ["Backdrop"],
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
            dependencies: ["Backdrop", "BackdropTestSupport", "CVectorKernels"]
        ),
        // End-to-end tests: the pictures of Tests/Fixtures, and the real binary (a dependency so that `swift test`
        // builds it).
        .testTarget(
            name: "BackdropEndToEndTests",
            dependencies: ["Backdrop", "BackdropTesting", "BackdropTestSupport", "backdrop", "backdrop-preview"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
