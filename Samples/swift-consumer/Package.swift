// swift-tools-version: 6.0
import PackageDescription

// An app's package that uses Ferry as a library, exactly as a developer would: a dependency by
// path (a versioned `.package(url:from:)` works the same way, as Ferry uses no unsafe flags).
let package = Package(
    name: "swift-consumer",
    dependencies: [
        .package(name: "ferry", path: "../.."),
    ],
    targets: [
        // Reads the V1 notes sample, keeps the favourites, migrates them to V2, writes CSV.
        .executableTarget(name: "favourite-notes", dependencies: [.product(name: "Ferry", package: "ferry")]),
        // A domain of the app's own: a reading log, V1 and V2, and its migration.
        .target(name: "ReadingLog", dependencies: [.product(name: "Ferry", package: "ferry")]),
        // Migrates a JSON Lines reading log from V1 to V2 and validates the result.
        .executableTarget(name: "reading-log", dependencies: ["ReadingLog"]),
        .testTarget(
            name: "ConsumerTests",
            dependencies: ["ReadingLog", .product(name: "Ferry", package: "ferry")],
            exclude: ["Fixtures"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
