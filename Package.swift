// swift-tools-version: 6.0
import PackageDescription

// Shared by every Swift target.
// No unsafe flags: SwiftPM refuses a package with them as a versioned dependency.
let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    // A file sees the members of the modules it imports itself, no others (SE-0444): every
    // import is written where it is used and declared as a dependency of its target below.
    .enableUpcomingFeature("MemberImportVisibility"),
]

let package = Package(
    name: "ferry",
    products: [
        .library(name: "FerryCore", targets: ["FerryCore"]),
        .library(name: "FerrySchemas", targets: ["FerrySchemas"]),
        .library(name: "FerryFormats", targets: ["FerryFormats"]),
        .library(name: "FerryPipeline", targets: ["FerryPipeline"]),
        // The one import for Swift programs: the libraries above re-exported, plus a small facade.
        .library(name: "Ferry", targets: ["Ferry"]),
        .executable(name: "ferry", targets: ["ferry"]),
        .plugin(name: "FerryValidatePlugin", targets: ["FerryValidatePlugin"]),
        .plugin(name: "FerryConvertPlugin", targets: ["FerryConvertPlugin"]),
    ],
    targets: [
        // MARK: - C system libraries (headers and link flags come from pkg-config)

        .systemLibrary(name: "CLibCrypto", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
        .systemLibrary(name: "CLibXML2", pkgConfig: "libxml-2.0", providers: [.apt(["libxml2-dev"])]),
        .systemLibrary(name: "CLibArchive", pkgConfig: "libarchive", providers: [.apt(["libarchive-dev"])]),
        // zlib, liblzma, libbz2 and libzstd (one module, no pkg-config: Debian ships no bzip2.pc), for the
        // decompressors that keep every byte before a cut (FormatBundle's StreamDecompressor).
        .systemLibrary(name: "CLibCompression", providers: [.apt(["zlib1g-dev", "liblzma-dev", "libbz2-dev", "libzstd-dev"])]),

        // MARK: - Core model, schemas and migration

        .target(name: "FerryCore", swiftSettings: swiftSettings),
        .target(name: "FerrySchemas", dependencies: ["FerryCore", "CLibCrypto"], swiftSettings: swiftSettings),

        // MARK: - Format adapters (one target per format; C dependencies stay inside their adapter)

        // Masks of 64-byte blocks and of a string's 16 bytes, with SSE2 where there is SSE2 (Swift's SIMD
        // types cannot gather them).
        .target(name: "CByteMasks"),
        .target(name: "FormatJSON", dependencies: ["FerryCore", "CByteMasks"], swiftSettings: swiftSettings),
        .target(name: "FormatCSV", dependencies: ["FerryCore"], swiftSettings: swiftSettings),
        .target(name: "FormatXML", dependencies: ["FerryCore", "CLibXML2"], swiftSettings: swiftSettings),
        .target(
            name: "FormatBundle",
            dependencies: ["FerryCore", "CLibArchive", "CLibCompression", "CLibCrypto"],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "FerryFormats",
            dependencies: ["FerryCore", "FormatJSON", "FormatCSV", "FormatXML", "FormatBundle"],
            swiftSettings: swiftSettings
        ),

        // MARK: - Typed path (issue 7): domain records from bytes to model to bytes, no Value in between

        .target(
            name: "FerryTypedPath",
            dependencies: ["CByteMasks", "FerryCore", "FerrySchemas", "FormatJSON", "FormatCSV", "FormatXML"],
            swiftSettings: swiftSettings
        ),

        // MARK: - Filter language

        .target(name: "FerryFilter", dependencies: ["FerryCore"], swiftSettings: swiftSettings),

        // MARK: - Pipeline and command line

        .target(
            name: "FerryPipeline",
            dependencies: [
                "FerryCore", "FerrySchemas", "FerryFormats", "FerryFilter", "FerryTypedPath", "FormatJSON", "FormatCSV",
                "FormatBundle",
            ],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "FerryCLI",
            dependencies: ["FerryCore", "FerrySchemas", "FerryFormats", "FormatJSON", "FerryPipeline"],
            swiftSettings: swiftSettings
        ),
        .target(
            name: "Ferry",
            dependencies: ["FerryCore", "FerrySchemas", "FerryFilter", "FerryFormats", "FerryPipeline"],
            swiftSettings: swiftSettings
        ),
        .executableTarget(name: "ferry", dependencies: ["FerryCLI"], swiftSettings: swiftSettings),

        // MARK: - SwiftPM command plugins (thin: they find and run the `ferry` tool)

        .plugin(
            name: "FerryValidatePlugin",
            capability: .command(
                intent: .custom(verb: "ferry-validate", description: "Validate every dataset under the given paths (default Samples/).")
            ),
            dependencies: ["ferry"]
        ),
        .plugin(
            name: "FerryConvertPlugin",
            capability: .command(
                intent: .custom(verb: "ferry-convert", description: "Convert every dataset under the given paths with ferry convert."),
                permissions: [.writeToPackageDirectory(reason: "Writes converted copies into converted/ in the package.")]
            ),
            dependencies: ["ferry"]
        ),

        // MARK: - Tests

        .target(
            name: "FerryTestSupport",
            dependencies: ["FerryCore"],
            path: "Tests/FerryTestSupport",
            swiftSettings: swiftSettings
        ),
        .testTarget(name: "FerryCoreTests", dependencies: ["FerryCore", "FerryTestSupport"], swiftSettings: swiftSettings),
        .testTarget(
            name: "FerrySchemasTests",
            dependencies: ["FerryCore", "FerrySchemas", "FerryTestSupport"],
            exclude: ["Fixtures"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "FormatJSONTests",
            dependencies: ["CByteMasks", "FerryCore", "FormatJSON", "FerryTestSupport"],
            exclude: ["Fixtures"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "FormatCSVTests",
            dependencies: ["FerryCore", "FormatCSV", "FerryTestSupport"],
            exclude: ["Fixtures"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "FormatXMLTests",
            dependencies: ["FerryCore", "FormatXML", "FerryTestSupport"],
            exclude: ["Fixtures"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "FormatBundleTests",
            dependencies: ["FerryCore", "FormatBundle", "FormatJSON", "FerryTestSupport"],
            exclude: ["Fixtures"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "FerryTypedPathTests",
            dependencies: ["FerryCore", "FerrySchemas", "FerryTypedPath", "FormatJSON", "FormatCSV", "FormatXML", "FerryTestSupport"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "FerryFilterTests",
            dependencies: ["FerryCore", "FerryFilter", "FerryTestSupport"],
            exclude: ["Fixtures"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "FerryTests",
            dependencies: ["Ferry", "ferry", "FerryTestSupport"],   // "ferry": the library's output is compared with the CLI's
            exclude: ["Fixtures"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "FerryCLITests",
            dependencies: ["FerryCore", "FerrySchemas", "FormatXML", "FormatBundle", "FerryFormats", "FerryTypedPath", "CLibXML2", "FerryPipeline", "FerryCLI", "ferry", "FerryTestSupport"],
            exclude: ["Fixtures"],
            swiftSettings: swiftSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)
