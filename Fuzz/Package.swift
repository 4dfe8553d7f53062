// swift-tools-version: 6.0
import Foundation
import PackageDescription

// libFuzzer targets for the PNG, JPEG, WebP and HEIF decoders, the command-line option parsing, scene files, golden manifests and the
// preview's HTTP request parsing. Built and run by scripts/fuzz:
// `swift build -c release -Xswiftc -sanitize=fuzzer …` (the flags are in that script). A separate package so that
// the main build never carries fuzzing instrumentation.
// The root package is referenced by path; SwiftPM names it after its folder, taken from this manifest's path.
let rootFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .lastPathComponent

/// A fuzz target: `Sources/NAME/NAME.swift`, linked with the driver and the one product of the root package it fuzzes.
func fuzzTarget(_ name: String, fuzzing product: String, also: [Target.Dependency] = []) -> Target {
    .executableTarget(
        name: name,
        dependencies: ["FuzzDriver", .product(name: product, package: rootFolder)] + also,
        swiftSettings: [.unsafeFlags(["-parse-as-library"])]
    )
}

let package = Package(
    name: "BackdropFuzz",
    dependencies: [
        .package(path: ".."),
        // The preview's HTTP parser, driven here on an EmbeddedChannel.
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
    ],
    targets: [
        // LLVMFuzzerRunDriver, which each target's entry point hands its one-input function to.
        .target(name: "FuzzDriver"),
        fuzzTarget("FuzzPNG", fuzzing: "Backdrop"),
        // The JPEG, WebP and HEIF decoders: one target, run from each format's seeds.
        fuzzTarget("FuzzPictures", fuzzing: "Backdrop"),
        fuzzTarget("FuzzOptions", fuzzing: "BackdropCLI"),
        fuzzTarget("FuzzScene", fuzzing: "Backdrop"),
        fuzzTarget("FuzzManifest", fuzzing: "Backdrop"),
        fuzzTarget(
            "FuzzHTTP", fuzzing: "BackdropPreview",
            also: [
                .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ]),
    ],
    swiftLanguageModes: [.v6]
)
