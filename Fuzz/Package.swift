// swift-tools-version: 6.0
import PackageDescription

// libFuzzer targets for Ferry's readers and filter parser (issue 8). A separate package because the
// sanitizer flags would break the normal executables and tests. Build and run with `make fuzz`
// from the package root; by hand:
//
//     swift build -c debug -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library
//     .build/debug/FuzzJSON -max_total_time=60 CORPUS_DIR
//
// Each target is an executable with `LLVMFuzzerTestOneInput`; its `<Module>_main` (what SwiftPM
// aliases `main` to) hands that function to libFuzzer's `LLVMFuzzerRunDriver`.
// FuzzNotes, FuzzPetStory and FuzzVocabulary run a domain's whole record path (any format, found by
// content; V1 migrated, V2 converted) and compare the typed path with the `Value` path.
let targets = ["FuzzJSON", "FuzzJSONLines", "FuzzCSV", "FuzzXML", "FuzzBundle", "FuzzFilter",
               "FuzzNotes", "FuzzPetStory", "FuzzVocabulary"]

let package = Package(
    name: "ferry-fuzz",
    dependencies: [.package(name: "ferry", path: "..")],
    targets: [
        .target(name: "CFuzzer"),
        .target(
            name: "FuzzSupport",
            dependencies: [
                "CFuzzer",
                .product(name: "FerryCore", package: "ferry"),
                .product(name: "FerryFormats", package: "ferry"),
                .product(name: "FerryPipeline", package: "ferry"),
                .product(name: "FerrySchemas", package: "ferry"),
            ]
        ),
    ] + targets.map { .executableTarget(name: $0, dependencies: ["FuzzSupport"]) },
    swiftLanguageModes: [.v6]
)
