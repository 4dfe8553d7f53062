// swift-tools-version: 6.0
import Foundation
import PackageDescription

// A package of its own so that users of the main library do not build swift-snapshot-testing's dependencies.
// The root package is referenced by path; SwiftPM names a path dependency after its folder, which differs between
// checkouts, so the name is taken from the folder two levels up.
// With BACKDROP_PACKAGE_URL set (scripts/check-consumers), Backdrop is a clone by URL instead (by version with
// BACKDROP_PACKAGE_VERSION, else by branch `main`).
let backdropURL = Context.environment["BACKDROP_PACKAGE_URL"]
let rootFolder =
    backdropURL == nil
    ? URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().lastPathComponent
    : "Backdrop"
let backdrop: Package.Dependency =
    if let url = backdropURL {
        if let version = Context.environment["BACKDROP_PACKAGE_VERSION"] {
            .package(url: url, from: Version(stringLiteral: version))
        } else {
            .package(url: url, branch: "main")
        }
    } else {
        .package(path: "../..")
    }

let package = Package(
    name: "BackdropSnapshotTesting",
    products: [
        .library(name: "BackdropSnapshotTesting", targets: ["BackdropSnapshotTesting"])
    ],
    dependencies: [
        backdrop,
        .package(url: "https://github.com/pointfreeco/swift-snapshot-testing", from: "1.19.7"),
    ],
    targets: [
        .target(
            name: "BackdropSnapshotTesting",
            dependencies: [
                .product(name: "Backdrop", package: rootFolder),
                .product(name: "SnapshotTesting", package: "swift-snapshot-testing"),
            ]
        )
    ],
    swiftLanguageModes: [.v6]
)
