// swift-tools-version: 6.0
import Foundation
import PackageDescription

// An example of golden-image tests in another package: a Swift Testing test and an XCTest test with
// BackdropTesting's assertion, and a swift-snapshot-testing test with Backdrop's strategy. CI runs `swift test` here.
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
    name: "GoldenTests",
    dependencies: [
        backdrop,
        .package(path: "../../Integrations/BackdropSnapshotTesting"),
        .package(url: "https://github.com/pointfreeco/swift-snapshot-testing", from: "1.19.7"),
    ],
    targets: [
        .testTarget(
            name: "GoldenTests",
            dependencies: [
                .product(name: "Backdrop", package: rootFolder),
                .product(name: "BackdropTesting", package: rootFolder),
                .product(name: "BackdropSnapshotTesting", package: "BackdropSnapshotTesting"),
                .product(name: "SnapshotTesting", package: "swift-snapshot-testing"),
            ],
            exclude: ["__Goldens__", "__Snapshots__"]
        )
    ],
    swiftLanguageModes: [.v6]
)
