// swift-tools-version:6.0
import PackageDescription

/// A phone + watch app of its own on PeerLink, outside PeerLink's package: a water log. The
/// watch (and the phone) log drinks, the phone sets the daily goal, both show today's total.
/// It depends on PeerLink by path, as any package would by version.
let package = Package(
    name: "WaterLog",
    dependencies: [
        .package(name: "PeerLink", path: "../.."),
    ],
    targets: [
        .target(name: "WaterLog", dependencies: [
            .product(name: "PeerLinkCore", package: "PeerLink"),
            .product(name: "PeerLinkScenarios", package: "PeerLink"),
        ]),
        .executableTarget(name: "water-node", dependencies: [
            "WaterLog",
            .product(name: "PeerLinkPOSIX", package: "PeerLink"),
        ]),
        .testTarget(name: "WaterLogTests", dependencies: [
            "WaterLog",
            .product(name: "PeerLinkSim", package: "PeerLink"),
            .product(name: "PeerLinkCore", package: "PeerLink"),
            .product(name: "PeerLinkScenarios", package: "PeerLink"),
            .product(name: "PeerLinkPOSIX", package: "PeerLink"),
            "water-node",
        ]),
    ],
    swiftLanguageModes: [.v6]
)
