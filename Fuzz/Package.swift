// swift-tools-version: 6.0
import Foundation
import PackageDescription

// libFuzzer targets for the PNG decoder and the command-line option parsing. Built and run by scripts/fuzz:
// `swift build -c release -Xswiftc -sanitize=fuzzer …` (the flags are in that script). A separate package so that
// the main build never carries fuzzing instrumentation.
// The root package is referenced by path; SwiftPM names it after its folder, taken from this manifest's path.
let rootFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .lastPathComponent

let package = Package(
    name: "BackdropFuzz",
    dependencies: [.package(path: "..")],
    targets: [
        // LLVMFuzzerRunDriver, which each target's entry point hands its one-input function to.
        .target(name: "FuzzDriver"),
        .executableTarget(
            name: "FuzzPNG",
            dependencies: ["FuzzDriver", .product(name: "Backdrop", package: rootFolder)],
            swiftSettings: [.unsafeFlags(["-parse-as-library"])]
        ),
        .executableTarget(
            name: "FuzzOptions",
            dependencies: ["FuzzDriver", .product(name: "BackdropCLI", package: rootFolder)],
            swiftSettings: [.unsafeFlags(["-parse-as-library"])]
        ),
    ],
    swiftLanguageModes: [.v6]
)
