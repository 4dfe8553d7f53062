// swift-tools-version: 6.1
import Foundation
import PackageDescription

// A separate package so that the library does not depend on the benchmark harness.
// The root package is referenced by path; SwiftPM names a path dependency after its folder, which differs
// between checkouts, so the name is taken from the folder this manifest sits in.
let rootFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .lastPathComponent

let package = Package(
    name: "BackdropBenchmarks",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        .executableTarget(
            name: "Render",
            dependencies: [
                .product(name: "Backdrop", package: rootFolder),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/Render",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "Codec",
            dependencies: [
                .product(name: "Backdrop", package: rootFolder),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/Codec",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "Compare",
            dependencies: [
                .product(name: "Backdrop", package: rootFolder),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/Compare",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ]
)
