// swift-tools-version: 6.0
import PackageDescription

// A package that depends on Backdrop as teams do: by URL and version, so SwiftPM applies the rules of a versioned
// dependency (no unsafe build flags in any target). `scripts/check-versioned-dependency` tags a clone of the
// repository and points BACKDROP_PACKAGE_URL at it; CI runs it.
let backdropURL = Context.environment["BACKDROP_PACKAGE_URL"] ?? "https://github.com/backdrop-project/Backdrop"
let backdropVersion = Context.environment["BACKDROP_PACKAGE_VERSION"] ?? "0.1.0"

let package = Package(
    name: "VersionedDependency",
    dependencies: [
        .package(url: backdropURL, from: Version(stringLiteral: backdropVersion))
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
