// swift-tools-version: 6.1
import Foundation
import PackageDescription

// A separate package so that the library does not depend on the benchmark harness.
// The root package is referenced by path; SwiftPM names a path dependency after its folder, which differs
// between checkouts, so the name is taken from the folder this manifest sits in. With BACKDROP_PACKAGE_URL set
// (scripts/check-consumers), it is a clone of the repository by URL instead (by version with
// BACKDROP_PACKAGE_VERSION, else by branch `main`), as for every consumer package CI builds: one scratch folder then
// compiles Backdrop's modules once for all of them.
let backdropURL = Context.environment["BACKDROP_PACKAGE_URL"]
let rootFolder =
    backdropURL == nil
    ? URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().lastPathComponent
    : "Backdrop"
let backdrop: Package.Dependency =
    if let url = backdropURL {
        if let version = Context.environment["BACKDROP_PACKAGE_VERSION"] {
            .package(url: url, from: Version(stringLiteral: version))
        } else {
            .package(url: url, branch: "main")
        }
    } else {
        .package(path: "..")
    }

let package = Package(
    name: "BackdropBenchmarks",
    platforms: [.macOS(.v13)],
    dependencies: [
        backdrop,
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
