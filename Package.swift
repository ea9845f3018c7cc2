// swift-tools-version: 6.0
import PackageDescription

let strictness: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny")
]

let package = Package(
    name: "Momentum",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "momentum", targets: ["momentum"]),
        .library(name: "MomentumCore", targets: ["MomentumCore"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.0.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.0.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket", from: "2.0.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.0"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.0.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.80.0"),
        .package(url: "https://github.com/apple/swift-crypto", "3.0.0"..<"5.0.0"),
        .package(url: "https://github.com/weichsel/ZIPFoundation", from: "0.9.19"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.21.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.0.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.27.0"),
    ],
    targets: [
        // Pure rules: values and functions, no I/O, no clock, no randomness of its own.
        .target(
            name: "MomentumCore",
            resources: [
                .embedInCode("Resources/ambient-catalog.json"),
                .embedInCode("Resources/strings-en.json"),
                .embedInCode("Resources/strings-de.json"),
            ],
            swiftSettings: strictness
        ),
        // Sound synthesis and WAV files.
        .target(name: "MomentumAudio", dependencies: ["MomentumCore"], swiftSettings: strictness),
        // What the services ask of a store and both stores implement: the repository protocols,
        // StoreError and SyncError, the bounds both schemas keep (docs/architecture.md).
        .target(name: "MomentumStoreContract", dependencies: ["MomentumCore"], swiftSettings: strictness),
        // SQLite through GRDB.
        .target(
            name: "MomentumStore",
            dependencies: ["MomentumCore", "MomentumStoreContract", .product(name: "GRDB", package: "GRDB.swift")],
            swiftSettings: strictness
        ),
        // PostgreSQL through postgres-nio: the store of several servers on one database (docs/postgres.md).
        .target(
            name: "MomentumPostgres",
            dependencies: [
                "MomentumCore", "MomentumStoreContract", .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictness
        ),
        // Use cases shared by the terminal and (later) the web app.
        .target(
            name: "MomentumServices",
            dependencies: [
                "MomentumCore", "MomentumStoreContract", "MomentumAudio",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "ZIPFoundation", package: "ZIPFoundation"),
                // Web Push delivery resolves names off the async threads and posts to the checked
                // address itself (docs/notifications.md).
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ],
            swiftSettings: strictness
        ),
        // The composition root: which store keeps the data is decided here, for the terminal and
        // the server alike (docs/architecture.md).
        .target(
            name: "MomentumComposition",
            dependencies: [
                "MomentumCore", "MomentumStoreContract", "MomentumServices", "MomentumStore", "MomentumPostgres",
            ],
            swiftSettings: strictness
        ),
        // The web app: HTTP API, static files of the browser UI, health and metrics.
        .target(
            name: "MomentumServer",
            dependencies: [
                "MomentumCore", "MomentumStoreContract", "MomentumStore", "MomentumServices", "MomentumAudio",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            exclude: ["Public"],
            resources: [.embedInCode("Resources/openapi.yaml")],
            swiftSettings: strictness,
            // The browser UI is built into the binary (EmbeddedWebApp), so it serves wherever it is copied.
            plugins: [.plugin(name: "EmbedWebApp")]
        ),
        .executableTarget(name: "EmbedWebAppTool", path: "Sources/EmbedWebAppTool"),
        .plugin(name: "EmbedWebApp", capability: .buildTool(), dependencies: ["EmbedWebAppTool"]),
        // The command-line interface and terminal players, as a library so tests can drive them.
        .target(
            name: "MomentumCLI",
            dependencies: [
                "MomentumComposition",
                "MomentumCore", "MomentumStoreContract", "MomentumStore", "MomentumPostgres", "MomentumAudio",
                "MomentumServices",
                "MomentumServer", .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            swiftSettings: strictness
        ),
        .executableTarget(name: "momentum", dependencies: ["MomentumCLI"], swiftSettings: strictness),
        // Benchmarks with their own synthetic data; run by scripts/benchmark-progress.sh.
        .executableTarget(
            name: "momentum-benchmarks", dependencies: ["MomentumCore", "MomentumStoreContract", "MomentumStore"],
            path: "Sources/MomentumBenchmarks", swiftSettings: strictness),

        // Helpers shared by the test targets (temporary directories); not part of any product.
        .target(name: "MomentumTestSupport", path: "Tests/MomentumTestSupport", swiftSettings: strictness),
        // The stores a parameterized test runs on: SQLite, and PostgreSQL when MOMENTUM_TEST_POSTGRES_URL is set.
        .target(
            name: "MomentumStoreTestSupport",
            dependencies: [
                "MomentumCore", "MomentumStoreContract", "MomentumStore", "MomentumPostgres", "MomentumServices",
                "MomentumTestSupport",
                .product(name: "PostgresNIO", package: "postgres-nio"),
            ],
            path: "Tests/MomentumStoreTestSupport", swiftSettings: strictness),

        .testTarget(
            name: "MomentumCoreTests", dependencies: ["MomentumCore", "MomentumTestSupport"], swiftSettings: strictness),
        .testTarget(
            name: "MomentumAudioTests", dependencies: ["MomentumAudio", "MomentumCore"], swiftSettings: strictness),
        .testTarget(
            name: "MomentumStoreTests",
            dependencies: [
                "MomentumStore", "MomentumCore", "MomentumStoreContract", "MomentumTestSupport",
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            swiftSettings: strictness
        ),
        .testTarget(
            name: "MomentumPostgresTests",
            dependencies: [
                "MomentumComposition",
                "MomentumPostgres", "MomentumCore", "MomentumStoreContract", "MomentumStore", "MomentumServices",
                "MomentumStoreTestSupport",
                "MomentumTestSupport", .product(name: "PostgresNIO", package: "postgres-nio"),
            ],
            swiftSettings: strictness
        ),
        .testTarget(
            name: "MomentumServicesTests",
            dependencies: [
                "MomentumComposition",
                "MomentumServices", "MomentumCore", "MomentumStoreContract", "MomentumStore", "MomentumAudio",
                "MomentumPostgres", "MomentumTestSupport",
                "MomentumStoreTestSupport",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "ZIPFoundation", package: "ZIPFoundation"),
            ],
            swiftSettings: strictness
        ),
        .testTarget(
            name: "MomentumServerTests",
            dependencies: [
                "MomentumComposition",
                "MomentumServer", "MomentumCore", "MomentumStoreContract", "MomentumServices", "MomentumStore",
                "MomentumAudio",
                "MomentumTestSupport", "MomentumStoreTestSupport", "MomentumPostgres",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "HummingbirdWSTesting", package: "hummingbird-websocket"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            swiftSettings: strictness
        ),
        .testTarget(
            name: "MomentumCLITests",
            dependencies: [
                "MomentumComposition",
                "MomentumCLI", "MomentumCore", "MomentumStoreContract", "MomentumStore", "MomentumAudio",
                "MomentumServices", "MomentumServer",
                "MomentumTestSupport", "MomentumStoreTestSupport",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictness),
    ],
    swiftLanguageModes: [.v6]
)
