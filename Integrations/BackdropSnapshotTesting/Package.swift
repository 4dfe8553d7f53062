// swift-tools-version: 6.0
import Foundation
import PackageDescription

// A package of its own so that users of the main library do not build swift-snapshot-testing's dependencies.
// The root package is referenced by path; SwiftPM names a path dependency after its folder, which differs between
// checkouts, so the name is taken from the folder two levels up.
let rootFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().lastPathComponent

let package = Package(
    name: "BackdropSnapshotTesting",
    products: [
        .library(name: "BackdropSnapshotTesting", targets: ["BackdropSnapshotTesting"])
    ],
    dependencies: [
        .package(path: "../.."),
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
