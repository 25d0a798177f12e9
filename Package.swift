// swift-tools-version:6.1
//
// Targets are split by trust and by what they may depend on (see ARCHITECTURE.md):
//
//   HealthModel   pure data model: types, units, samples, predicates, errors. No I/O.
//   COpenHealthProto  protobuf-c code generated from proto/ (never edited by hand).
//   HealthWire    framing and conversion between the model and the generated structs.
//   HealthIPC     Unix sockets: listen/connect, peer credentials, fd passing, RPC calls.
//   CPageCipher   SQLite VFS shim doing page-level AES-256-GCM with OpenSSL.
//   CChangeCapture SQLite's pre-update hook noting which sample types a write touched.
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
        .library(name: "CoreLocation", targets: ["CoreLocation"]),
        .library(name: "UniformTypeIdentifiers", targets: ["UniformTypeIdentifiers"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/weichsel/ZIPFoundation", from: "0.9.20"),
        .package(url: "https://github.com/JohnSundell/Plot", from: "0.14.0"),
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
        .target(name: "CAllocator"),  // healthd's mallopt settings (AllocatorTuning)
        .target(name: "CCrashReport"),  // a fatal signal's location in healthd's log (CrashReport)
        .target(
            name: "HealthIPC",
            dependencies: ["CSocketShim", "HealthWire", "HealthModel"],
            swiftSettings: swiftSettings
        ),

        // MARK: Storage (the only place that touches SQLite)
        .target(
            name: "CPageCipher",
            dependencies: [.product(name: "GRDBSQLite", package: "GRDB.swift")],
            linkerSettings: [.linkedLibrary("crypto")]
        ),
        // X25519 for the locked store's pending journal (sealed to a public key); its HKDF and
        // AES-GCM are CPageCipher's, the same the page keys use.
        .target(
            name: "CJournalSeal",
            linkerSettings: [.linkedLibrary("crypto")]
        ),
        // SQLite's pre-update hook noting the sample types a write touched, for the commit watcher.
        .target(
            name: "CChangeCapture",
            dependencies: [.product(name: "GRDBSQLite", package: "GRDB.swift")]
        ),
        .target(
            name: "HealthStore",
            dependencies: [
                "HealthModel", "CPageCipher", "CJournalSeal", "CChangeCapture",
                .product(name: "GRDB", package: "GRDB.swift"),
                // The insert path binds cached statements through SQLite's C API (BoundStatement).
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "store-bench",
            dependencies: ["HealthStore", .product(name: "GRDB", package: "GRDB.swift")],
            path: "Benchmarks/StoreBench",
            swiftSettings: swiftSettings
        ),

        // Starting, watching and stopping a real healthd, for the full-stack benchmarks below.
        .target(name: "BenchSupport", path: "Benchmarks/BenchSupport", swiftSettings: swiftSettings),
        .executableTarget(
            name: "privacy-bench",
            dependencies: ["BenchSupport", "HealthStore", "HealthModel", "HealthIPC", "HealthWire"],
            path: "Benchmarks/PrivacyBench",
            swiftSettings: swiftSettings
        ),
        // One hostile app per issue-13 attack beside a well-behaved app and healthctl (Benchmarks/README.md).
        .executableTarget(
            name: "broker-bench",
            dependencies: ["BenchSupport", "HealthStore", "HealthModel", "HealthIPC", "HealthWire"],
            path: "Benchmarks/BrokerBench",
            swiftSettings: swiftSettings
        ),
        // Issue 17's figures through the full stack beside the machine's limits (Benchmarks/README.md).
        .executableTarget(
            name: "stack-bench",
            dependencies: ["BenchSupport", "HealthKit", "HealthStore", "HealthModel", .product(name: "GRDB", package: "GRDB.swift"),
                           .product(name: "GRDBSQLite", package: "GRDB.swift")],
            path: "Benchmarks/StackBench",
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "query-bench",
            dependencies: ["HealthStore", "HealthModel", "HealthWire", .product(name: "GRDB", package: "GRDB.swift")],
            path: "Benchmarks/QueryBench",
            swiftSettings: swiftSettings
        ),

        // MARK: SMART Health Cards (untrusted bytes: healthd parses a card the user imports)
        // zlib for the payload's raw DEFLATE (bounded), OpenSSL for the ES256 signature.
        .target(name: "CHealthCard", linkerSettings: [.linkedLibrary("z"), .linkedLibrary("crypto")]),
        .target(name: "SmartHealthCard", dependencies: ["HealthModel", "CHealthCard"], swiftSettings: swiftSettings),

        // MARK: Broker policy
        .target(
            name: "HealthBroker",
            dependencies: [
                "HealthModel", "HealthWire", "HealthIPC", "HealthStore", "SmartHealthCard",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),

        // MARK: Sandbox confinement (small C, no policy)
        .target(
            name: "CSandbox",
            dependencies: ["CSocketShim"],
            path: "sandbox",
            exclude: ["README.md", "probe", "escape-probe"],
            linkerSettings: [.linkedLibrary("seccomp")]
        ),
        .target(
            name: "HealthSandboxKit",
            dependencies: ["CSandbox", "HealthIPC", "HealthWire", "HealthModel"],
            swiftSettings: swiftSettings
        ),
        .executableTarget(name: "sandbox-probe", dependencies: ["CSandbox"], path: "sandbox/probe"),
        // Run as an app inside the real sandbox (health-sandbox run) by Tests/SandboxTests/RealSandboxEscapeTests.
        .executableTarget(name: "escape-probe", path: "sandbox/escape-probe"),

        // MARK: Executables
        .executableTarget(
            name: "healthd",
            dependencies: [
                "HealthBroker", "HealthStore", "HealthIPC", "HealthModel", "CSandbox", "CAllocator", "CCrashReport", "HealthSandboxKit",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "health-sandbox",
            dependencies: [
                "HealthSandboxKit", "HealthIPC", "HealthWire", "HealthModel",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: swiftSettings
        ),

        // MARK: Reading Apple Health exports (pure: no broker, no store)
        // libxml2's SAX2 push parser for export.xml (Debian libxml2-dev, scripts/install-deps.sh).
        .systemLibrary(name: "CLibXML2", pkgConfig: "libxml-2.0", providers: [.apt(["libxml2-dev"])]),
        .target(
            name: "AppleHealthExport",
            dependencies: ["HealthModel", "CLibXML2", .product(name: "ZIPFoundation", package: "ZIPFoundation")],
            swiftSettings: swiftSettings
        ),

        // MARK: The HTML report (pure: data in, one self-contained page out)
        .target(
            name: "HealthReport",
            dependencies: [.product(name: "Plot", package: "Plot")],
            swiftSettings: swiftSettings
        ),

        // MARK: CDA documents (an untrusted-XML reader for the SDK and healthctl; healthd never links it)
        .target(name: "CDADocument", dependencies: ["HealthModel"], swiftSettings: swiftSettings),

        // MARK: Manager
        .target(
            name: "HealthManagerCLI",
            dependencies: [
                "HealthModel", "HealthWire", "HealthIPC", "AppleHealthExport", "HealthReport", "CDADocument",
                "CAllocator",  // `healthctl import` keeps its batch buffers' memory (ImportAllocator)
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            exclude: ["README.md"],
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "healthctl",
            dependencies: ["HealthManagerCLI"],
            swiftSettings: swiftSettings
        ),

        // MARK: SDK
        // CLLocation and friends for workout routes: Linux has no CoreLocation.
        .target(name: "CoreLocation", swiftSettings: swiftSettings),
        // UTType for attachments' content types: Linux has no UniformTypeIdentifiers.
        .target(name: "UniformTypeIdentifiers", swiftSettings: swiftSettings),
        .target(
            name: "HealthKit",
            dependencies: ["HealthModel", "HealthWire", "HealthIPC", "CoreLocation", "UniformTypeIdentifiers", "CDADocument"],
            exclude: ["README.md"],
            swiftSettings: swiftSettings
        ),

        // MARK: Example apps, built with the SDK only
        .executableTarget(name: "heart-rate-app", dependencies: ["HealthKit"], path: "Examples/HeartRateApp",
                          swiftSettings: swiftSettings),
        .executableTarget(name: "step-reader-app", dependencies: ["HealthKit"], path: "Examples/StepReaderApp",
                          swiftSettings: swiftSettings),

        // MARK: Tests
        .target(name: "TestSupport", dependencies: ["HealthIPC"], path: "Tests/TestSupport", swiftSettings: swiftSettings),
        .testTarget(name: "HealthModelTests", dependencies: ["HealthModel", "TestSupport"], swiftSettings: swiftSettings),
        .testTarget(name: "HealthIPCTests", dependencies: ["HealthIPC", "HealthWire", "TestSupport"], swiftSettings: swiftSettings),
        .testTarget(name: "HealthWireTests", dependencies: ["HealthWire", "HealthModel", "COpenHealthProto", "TestSupport"], swiftSettings: swiftSettings),
        .testTarget(name: "SandboxTests", dependencies: ["CSandbox", "HealthSandboxKit", "HealthModel", "HealthWire", "TestSupport"], swiftSettings: swiftSettings),
        // Real broker, real sockets, real separate processes. Needs the executables built
        // (swift build --build-tests builds every product).
        .executableTarget(name: "e2e-client", dependencies: ["HealthKit"], path: "Tests/EndToEndClient",
                          swiftSettings: swiftSettings),
        .testTarget(
            name: "EndToEndTests",
            // HealthStore: the access-log tamper test edits a stopped healthd's store directly.
            // CSandbox: the kernel's Landlock ABI, to know whether healthd must say it is confined.
            dependencies: ["HealthWire", "HealthIPC", "HealthModel", "HealthStore", "TestSupport", "AppleHealthExport", "CSandbox",
                           // COpenHealthProto: WireNumberJunkEndToEndTests walks the generated descriptors.
                           "COpenHealthProto",
                           // ZIPFoundation: raw DEFLATE for HostileCardEndToEndTests' compressed cards.
                           .product(name: "ZIPFoundation", package: "ZIPFoundation")],
            swiftSettings: swiftSettings
        ),
        // Byte-for-byte comparison of what an app receives with and without hidden data
        // (Tests/LeakProbeTests/README.md); the probing app is leak-probe-client.
        .executableTarget(name: "leak-probe-client", dependencies: ["HealthIPC", "HealthWire"], path: "Tests/LeakProbeClient",
                          swiftSettings: swiftSettings),
        // Tries to take another app's broker socket (IdentityAttackTests runs it confined and not).
        .executableTarget(name: "socket-thief", path: "Tests/SocketThief"),
        // Poses as healthd as another user and counts what clients send it (SandboxTests/BrokerImpostorTests).
        .executableTarget(name: "broker-impostor", path: "Tests/BrokerImpostor"),
        // healthd's crash reporter in a process that traps (EndToEndTests/CrashReportEndToEndTests).
        .executableTarget(name: "crash-report-probe", dependencies: ["CCrashReport"], path: "Tests/CrashReportProbe"),
        // Starts a healthd through the test support code and waits to be killed
        // (EndToEndTests/HarnessChildLifetimeTests: the healthd dies with it).
        .executableTarget(name: "broker-holder", dependencies: ["TestSupport"], path: "Tests/BrokerHolder",
                          swiftSettings: swiftSettings),
        // A FUSE mount that never answers (SandboxTests/PeerIdentificationStallTests).
        .executableTarget(name: "hung-fuse", path: "Tests/HungFuse"),
        // healthd's file confinement and peer inspector applied to a probe that tries what a hijacked
        // healthd might (Tests/SandboxTests/BrokerFileConfinementTests).
        .executableTarget(name: "broker-confine-probe", dependencies: ["HealthSandboxKit", "HealthIPC", "CSandbox"],
                          path: "Tests/BrokerConfineProbe", swiftSettings: swiftSettings),
        .testTarget(
            name: "LeakProbeTests",
            dependencies: ["HealthWire", "HealthModel", "TestSupport"],
            exclude: ["README.md"],
            swiftSettings: swiftSettings
        ),
        .testTarget(name: "HealthStoreTests", dependencies: ["HealthStore", "HealthModel", "TestSupport"], swiftSettings: swiftSettings),
        // Killed with SIGKILL by HealthStoreTests' crash tests; built by `swift build`/`swift test`.
        .executableTarget(
            name: "store-crash-child",
            dependencies: ["HealthStore", "HealthModel", .product(name: "GRDB", package: "GRDB.swift")],
            path: "Tests/StoreCrashChild",
            swiftSettings: swiftSettings
        ),
        .testTarget(name: "HealthManagerCLITests", dependencies: ["HealthManagerCLI", "HealthWire", "HealthIPC", "HealthModel"], swiftSettings: swiftSettings),
        .testTarget(name: "AppleHealthExportTests", dependencies: ["AppleHealthExport", "HealthModel", "TestSupport",
                                                               .product(name: "ZIPFoundation", package: "ZIPFoundation")],
                    swiftSettings: swiftSettings),
        .testTarget(name: "HealthReportTests", dependencies: ["HealthReport"], swiftSettings: swiftSettings),
        .testTarget(name: "SmartHealthCardTests", dependencies: ["SmartHealthCard", "HealthModel", "TestSupport"], swiftSettings: swiftSettings),
        .testTarget(name: "HealthKitTests", dependencies: ["HealthKit", "HealthWire", "HealthIPC", "CDADocument", "TestSupport"], swiftSettings: swiftSettings),
        .testTarget(
            name: "HealthBrokerTests",
            dependencies: ["HealthBroker", "HealthStore", "HealthModel", .product(name: "GRDB", package: "GRDB.swift")],
            swiftSettings: swiftSettings
        ),
    ]
)

// MARK: Fuzz targets (Fuzz/README.md)
// Built only with OHK_FUZZ=1, because they need libFuzzer's flags (scripts/fuzz.sh passes
// -sanitize=fuzzer and -parse-as-library); CI's plain `swift build` never sees them.
if Context.environment["OHK_FUZZ"] == "1" {
    let fuzzTargets: [(name: String, dependencies: [Target.Dependency])] = [
        ("frame", ["HealthWire"]),
        ("message", ["HealthWire", "HealthModel"]),
        ("predicate", ["HealthWire", "HealthModel"]),
        ("unit", ["HealthModel"]),
        ("manifest", ["HealthManagerCLI"]),
        ("health-card", ["SmartHealthCard"]),
        ("query-spec", ["HealthWire", "HealthModel"]),
    ]
    for target in fuzzTargets {
        package.targets.append(.executableTarget(name: "fuzz-\(target.name)", dependencies: target.dependencies,
                                                 path: "Fuzz/\(target.name)", exclude: ["corpus"], swiftSettings: swiftSettings))
        package.products.append(.executable(name: "fuzz-\(target.name)", targets: ["fuzz-\(target.name)"]))
    }
}
