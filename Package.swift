// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "Backdrop",
    products: [
        .library(name: "Backdrop", targets: ["Backdrop"]),
        .library(name: "BackdropCLI", targets: ["BackdropCLI"]),
        .executable(name: "backdrop", targets: ["backdrop"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    ],
    targets: [
        // libpng behind a C boundary: setjmp/longjmp never cross a Swift frame.
        .target(
            name: "CLibPNG",
            linkerSettings: [.linkedLibrary("png16")]
        ),
        // A parallel-for over row bands, compiled with OpenMP (Debian libomp-dev).
        .target(
            name: "COpenMP",
            cSettings: [.unsafeFlags(["-fopenmp"])],
            linkerSettings: [.linkedLibrary("omp5")]
        ),
        .target(
            name: "Backdrop",
            dependencies: ["CLibPNG", "COpenMP"]
        ),
        // The commands, as a library: the executable is one line, and Fuzz/ can drive the option parsing.
        .target(
            name: "BackdropCLI",
            dependencies: [
                "Backdrop",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(
            name: "backdrop",
            dependencies: ["BackdropCLI"]
        ),
        .testTarget(
            name: "BackdropTests",
            // The CLI is a dependency so that `swift test` builds it: the CLI tests run the real binary.
            dependencies: ["Backdrop", "backdrop"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
