// swift-tools-version:6.0
import PackageDescription

/// The libraries are compiled with optimization in debug builds too: `swift test` replays
/// thousands of simulated hours (every scenario in both modes and a 200-seed sweep of each),
/// which an unoptimized build cannot do within CI's budget. Set `PEERLINK_ONONE=1` to build
/// them unoptimized for the debugger.
///
/// Release builds also drop the runtime exclusivity checks of these libraries (about a tenth of
/// the simulator's time: the engine and the network are classes); debug builds, which run the
/// tests, keep them, so an overlapping access still traps there.
let optimized: [SwiftSetting] = (Context.environment["PEERLINK_ONONE"] == nil ? [.unsafeFlags(["-O"])] : [])
    + [.unsafeFlags(["-enforce-exclusivity=unchecked"], .when(configuration: .release))]

/// PeerLink: an iPhone app and its Apple Watch companion, simulated on Linux.
/// Arrows point down only: executables → Simulator → PhoneNode/WatchNode → PeerLink → Shared.
let package = Package(
    name: "PeerLink",
    products: [
        .executable(name: "phone-node", targets: ["phone-node"]),
        .executable(name: "watch-node", targets: ["watch-node"]),
        .executable(name: "sync-sim", targets: ["sync-sim"]),
        .executable(name: "sync-bench", targets: ["sync-bench"]),
    ],
    targets: [
        // MARK: - System libraries
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        .systemLibrary(
            name: "COpenSSL",
            pkgConfig: "libcrypto",
            providers: [.apt(["libssl-dev"])]
        ),

        // MARK: - Libraries
        .target(name: "Shared", dependencies: ["CSQLite", "COpenSSL"], swiftSettings: optimized),
        .target(name: "PeerLink", dependencies: ["Shared", "COpenSSL"], swiftSettings: optimized),
        .target(name: "PhoneNode", dependencies: ["PeerLink", "Shared"], swiftSettings: optimized),
        .target(name: "WatchNode", dependencies: ["PeerLink", "Shared"], swiftSettings: optimized),
        .target(name: "Simulator", dependencies: ["PhoneNode", "WatchNode", "PeerLink", "Shared"], swiftSettings: optimized),
        .target(name: "NodeMain", dependencies: ["PhoneNode", "WatchNode", "PeerLink", "Shared"]),

        // MARK: - Executables
        .executableTarget(name: "phone-node", dependencies: ["NodeMain"]),
        .executableTarget(name: "watch-node", dependencies: ["NodeMain"]),
        .executableTarget(name: "sync-sim", dependencies: ["Simulator", "NodeMain", "PeerLink", "Shared"]),
        .executableTarget(name: "sync-bench", dependencies: ["Simulator", "NodeMain", "PhoneNode", "WatchNode", "PeerLink", "Shared", "CSQLite"]),

        // MARK: - Tests
        .testTarget(name: "SharedTests", dependencies: ["Shared"]),
        .testTarget(name: "PeerLinkTests", dependencies: ["PeerLink", "Shared"]),
        .testTarget(name: "PhoneNodeTests", dependencies: ["PhoneNode", "PeerLink", "Shared"]),
        .testTarget(name: "WatchNodeTests", dependencies: ["WatchNode", "PeerLink", "Shared"]),
        .testTarget(name: "SimulatorTests", dependencies: ["Simulator", "PhoneNode", "WatchNode", "PeerLink", "Shared"]),
        .testTarget(name: "SyncTests", dependencies: ["Simulator", "Shared", "phone-node", "watch-node", "sync-sim"]),
    ],
    swiftLanguageModes: [.v6]
)
