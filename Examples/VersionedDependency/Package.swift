// swift-tools-version: 6.0
import PackageDescription

// A package that depends on Backdrop as the README shows: by URL and branch, until releases are tagged (a version
// requirement finds no tag today). `scripts/check-consumers` points BACKDROP_PACKAGE_URL at a clone of the
// repository on a `main` branch, and also builds against a tagged clone by version (BACKDROP_PACKAGE_VERSION), where
// SwiftPM refuses any unsafe build flag in Backdrop's targets; CI runs both.
let backdropURL = Context.environment["BACKDROP_PACKAGE_URL"] ?? "https://github.com/backdrop-project/Backdrop"
let backdropRequirement: Package.Dependency =
    if let version = Context.environment["BACKDROP_PACKAGE_VERSION"] {
        .package(url: backdropURL, from: Version(stringLiteral: version))
    } else {
        .package(url: backdropURL, branch: "main")
    }

let package = Package(
    name: "VersionedDependency",
    dependencies: [
        backdropRequirement
    ],
    targets: [
        .testTarget(
            name: "VersionedDependencyTests",
            dependencies: [
                .product(name: "Backdrop", package: "Backdrop"),
                .product(name: "BackdropTesting", package: "Backdrop"),
            ],
            exclude: ["__Goldens__"]
        )
    ],
    swiftLanguageModes: [.v6]
)
