// swift-tools-version: 6.0
import Foundation
import PackageDescription

// An example of golden-image tests in another package: a Swift Testing test and an XCTest test with
// BackdropTesting's assertion, and a swift-snapshot-testing test with Backdrop's strategy. CI runs `swift test` here.
let rootFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().lastPathComponent

let package = Package(
    name: "GoldenTests",
    dependencies: [
        .package(path: "../.."),
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
