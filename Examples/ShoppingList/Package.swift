// swift-tools-version:6.0
import PackageDescription

/// A shared shopping list, written against Apple's `WCSession` API only, under PeerLink's
/// simulator (docs/WATCHCONNECTIVITY.md). `ShoppingList` is the app's sync layer as it ships
/// in the iPhone and the watch app; `ShoppingListHarness` describes each side to PeerLink
/// (its test verbs, what must converge, what survives a restart); `shopping-sim` runs, sweeps
/// and replays its scenarios, and serves as either side in process mode.
let package = Package(
    name: "ShoppingList",
    dependencies: [
        .package(name: "PeerLink", path: "../.."),
    ],
    targets: [
        // The app's code: Foundation and WCSession only.
        .target(name: "ShoppingList", dependencies: [
            .product(name: "PeerLinkWatchConnectivity", package: "PeerLink"),
        ]),
        // PeerLink-specific code lives here and in the tests, never in the app.
        .target(name: "ShoppingListHarness", dependencies: [
            "ShoppingList",
            .product(name: "PeerLinkWatchConnectivity", package: "PeerLink"),
            .product(name: "PeerLinkWatchConnectivityHarness", package: "PeerLink"),
            .product(name: "PeerLinkCore", package: "PeerLink"),
            .product(name: "PeerLinkScenarios", package: "PeerLink"),
        ]),
        .executableTarget(name: "shopping-sim", dependencies: [
            "ShoppingListHarness",
            .product(name: "PeerLinkWatchConnectivityHarness", package: "PeerLink"),
            .product(name: "PeerLinkScenarios", package: "PeerLink"),
            .product(name: "PeerLinkPOSIX", package: "PeerLink"),
            .product(name: "PeerLinkCore", package: "PeerLink"),
        ]),
        .testTarget(name: "ShoppingListTests", dependencies: [
            "ShoppingList", "ShoppingListHarness", "shopping-sim",
            .product(name: "PeerLinkCore", package: "PeerLink"),
            .product(name: "PeerLinkScenarios", package: "PeerLink"),
            .product(name: "PeerLinkPOSIX", package: "PeerLink"),
        ]),
    ],
    swiftLanguageModes: [.v6]
)
