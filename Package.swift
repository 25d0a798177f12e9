// swift-tools-version:6.1
//
// Targets are split by trust and by what they may depend on (see ARCHITECTURE.md):
//
//   HealthModel   pure data model: types, units, samples, predicates, errors. No I/O.
//   COpenHealthProto  protobuf-c code generated from proto/ (never edited by hand).
//   HealthWire    framing and conversion between the model and the generated structs.
//   HealthIPC     Unix sockets: listen/connect, peer credentials, fd passing, RPC calls.
//   CPageCipher   SQLite VFS shim doing page-level AES-256-GCM with OpenSSL.
//   HealthStore   the only importer of SQLite: schema, migrations, key custody.
//   HealthBroker  policy: identity, authorization engine, method table, queries.
//   HealthKit     the SDK apps import. Never depends on HealthStore or HealthBroker.
//   CSandbox      (sandbox/) the confinement steps health-sandbox applies before exec.
import PackageDescription

let swiftSettings: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "OpenHealthKit",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "HealthKit", targets: ["HealthKit"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
    ],
    targets: [
        // MARK: Pure model
        .target(name: "HealthModel", swiftSettings: swiftSettings),

        // MARK: Wire
        .target(
            name: "COpenHealthProto",
            cSettings: [.unsafeFlags(["-w"])],  // generated code; its warnings are protoc-c's
            linkerSettings: [.linkedLibrary("protobuf-c")]
        ),
        .target(
            name: "HealthWire",
            dependencies: ["COpenHealthProto", "HealthModel"],
            swiftSettings: swiftSettings
        ),
        .target(name: "CSocketShim"),
        .target(
            name: "HealthIPC",
            dependencies: ["CSocketShim", "HealthWire", "HealthModel"],
            swiftSettings: swiftSettings
        ),

        // MARK: Storage (the only place that touches SQLite)
        .target(
            name: "HealthStore",
            dependencies: [
                "HealthModel",
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            swiftSettings: swiftSettings
        ),

        // MARK: SDK
        .target(
            name: "HealthKit",
            dependencies: ["HealthModel", "HealthWire", "HealthIPC"],
            swiftSettings: swiftSettings
        ),

        // MARK: Tests
        .testTarget(name: "HealthModelTests", dependencies: ["HealthModel"], swiftSettings: swiftSettings),
        .testTarget(name: "HealthIPCTests", dependencies: ["HealthIPC", "HealthWire"], swiftSettings: swiftSettings),
        .testTarget(name: "HealthWireTests", dependencies: ["HealthWire", "HealthModel", "COpenHealthProto"], swiftSettings: swiftSettings),
        .testTarget(name: "HealthKitTests", dependencies: ["HealthKit", "HealthWire", "HealthIPC"], swiftSettings: swiftSettings),
    ]
)
