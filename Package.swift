// swift-tools-version:6.0
import PackageDescription

/// PeerLink: an iPhone app and its Apple Watch companion, simulated on Linux.
///
/// Layers, arrows pointing down only (docs/ARCHITECTURE.md):
///   executables → PhoneWatch → PhoneNode, WatchNode, PeerLinkScenarios
///   PhoneNode, WatchNode → FitnessDomain, CountdownDomain → SVGKit, PeerLinkCore
///   PeerLinkScenarios → PeerLinkSim, PeerLinkPOSIX → PeerLinkCore → COpenSSL
/// PeerLinkCore is the protocol: payload, clock, crypto, replication, wire, session, node
/// engine, all pure. PeerLinkPOSIX runs it on sockets, SQLite and a directory; PeerLinkSim in
/// one process on a simulated network in virtual time.
let package = Package(
    name: "PeerLink",
    products: [
        .library(name: "PeerLinkCore", targets: ["PeerLinkCore"]),
        .library(name: "PeerLinkPOSIX", targets: ["PeerLinkPOSIX"]),
        .library(name: "PeerLinkSim", targets: ["PeerLinkSim"]),
        .library(name: "PeerLinkScenarios", targets: ["PeerLinkScenarios"]),
        .library(name: "PeerLinkWatchConnectivity", targets: ["PeerLinkWatchConnectivity"]),
        .library(name: "PeerLinkWatchConnectivityHarness", targets: ["PeerLinkWatchConnectivityHarness"]),
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

        // MARK: - The protocol and its two shells
        .target(name: "PeerLinkCore", dependencies: ["COpenSSL"]),
        .target(name: "PeerLinkPOSIX", dependencies: ["PeerLinkCore", "CSQLite"]),
        .target(name: "PeerLinkSim", dependencies: ["PeerLinkCore"]),

        // MARK: - The two apps: their domains, drawing, then the apps
        .target(name: "SVGKit"),
        .target(name: "FitnessDomain", dependencies: ["PeerLinkCore", "SVGKit"]),
        .target(name: "CountdownDomain", dependencies: ["PeerLinkCore"]),
        .target(name: "PhoneNode", dependencies: ["PeerLinkCore", "FitnessDomain", "CountdownDomain", "SVGKit"]),
        .target(name: "WatchNode", dependencies: ["PeerLinkCore", "FitnessDomain", "CountdownDomain", "SVGKit"]),

        // MARK: - The scenario runner and the nodes' entry points
        .target(name: "PeerLinkScenarios", dependencies: ["PeerLinkSim", "PeerLinkPOSIX", "PeerLinkCore", "SVGKit"]),

        // MARK: - Apple's WatchConnectivity API over the core, and its harness (docs/WATCHCONNECTIVITY.md)
        .target(name: "PeerLinkWatchConnectivity", dependencies: ["PeerLinkCore"]),
        .target(name: "PeerLinkWatchConnectivityHarness", dependencies: ["PeerLinkWatchConnectivity", "PeerLinkScenarios", "PeerLinkPOSIX", "PeerLinkCore"]),

        // MARK: - The two apps bound together: their pair for the runner, the nodes' entry points
        .target(name: "PhoneWatch", dependencies: ["PhoneNode", "WatchNode", "PeerLinkScenarios", "PeerLinkPOSIX", "PeerLinkCore", "FitnessDomain", "CountdownDomain"]),

        // MARK: - Executables
        .executableTarget(name: "phone-node", dependencies: ["PhoneWatch"]),
        .executableTarget(name: "watch-node", dependencies: ["PhoneWatch"]),
        .executableTarget(name: "sync-sim", dependencies: ["PeerLinkScenarios", "PhoneWatch", "PeerLinkSim", "PeerLinkPOSIX", "PeerLinkCore"]),
        .executableTarget(name: "sync-bench", dependencies: ["PeerLinkScenarios", "PhoneWatch", "PhoneNode", "WatchNode", "PeerLinkSim", "PeerLinkPOSIX", "PeerLinkCore",
                                                           "FitnessDomain", "CountdownDomain", "CSQLite"]),

        // MARK: - Tests
        .testTarget(name: "SharedTests", dependencies: ["PeerLinkCore", "PeerLinkPOSIX", "FitnessDomain", "CountdownDomain", "SVGKit"]),
        .testTarget(name: "PeerLinkTests", dependencies: ["PeerLinkCore", "PeerLinkPOSIX", "PeerLinkSim", "FitnessDomain", "CountdownDomain"]),
        .testTarget(name: "PhoneNodeTests", dependencies: ["PhoneNode", "PeerLinkCore", "PeerLinkSim", "FitnessDomain", "CountdownDomain", "SVGKit"]),
        .testTarget(name: "WatchNodeTests", dependencies: ["WatchNode", "PeerLinkCore", "PeerLinkSim", "FitnessDomain", "CountdownDomain", "SVGKit"]),
        .testTarget(name: "SimulatorTests", dependencies: ["PeerLinkScenarios", "PhoneWatch", "PhoneNode", "WatchNode", "PeerLinkSim", "PeerLinkPOSIX", "PeerLinkCore",
                                                           "FitnessDomain", "CountdownDomain", "SVGKit"]),
        .testTarget(name: "WatchConnectivityTests", dependencies: ["PeerLinkWatchConnectivity", "PeerLinkWatchConnectivityHarness", "PeerLinkScenarios", "PeerLinkCore"]),
        .testTarget(name: "SyncTests", dependencies: ["PeerLinkScenarios", "PhoneWatch", "PeerLinkSim", "PeerLinkPOSIX", "PeerLinkCore", "FitnessDomain", "CountdownDomain",
                                                      "phone-node", "watch-node", "sync-sim"]),
    ],
    swiftLanguageModes: [.v6]
)
