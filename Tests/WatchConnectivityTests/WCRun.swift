import Foundation
import Testing
import PeerLinkCore
import PeerLinkScenarios
import PeerLinkWatchConnectivity
import PeerLinkWatchConnectivityHarness

/// One run of a pair of `ProbeApp` sides through the simulator (both sides' `WCSession`s over
/// PeerLink's link, in virtual time), and what each side's app recorded afterwards.
struct WCRun<Phone: WCAppSide, Watch: WCAppSide> {
    let result: ScenarioResult
    let driver: SimDriver<WCAppPair<Phone, Watch>>

    /// Runs `steps` (lines of the scenario language after the header; the run starts at 09:00:00).
    /// Every failed check is an issue, except one whose detail contains a string of `excusing`.
    init(_ phone: Phone.Type, _ watch: Watch.Type, seed: Int = 1, excusing: [String] = [], _ steps: String,
         sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
        let text = "scenario \"wc\"\nstart 2026-06-01T09:00:00+09:00\nseed \(seed)\n" + steps
        let scenario = try ScenarioParser.parse(text, file: "WatchConnectivityTests")
        driver = SimDriver(pair: WCAppPair<Phone, Watch>())
        result = ScenarioRunner(driver: driver).run(scenario)
        #expect(result.error == nil, "the run stopped: \(result.error ?? "")", sourceLocation: sourceLocation)
        for c in result.checks where !c.passed && !excusing.contains(where: { c.detail.contains($0) }) {
            Issue.record("\(c.description): \(c.detail)", sourceLocation: sourceLocation)
        }
    }

    /// `query PATH` on `role`'s node after the run.
    func query(_ role: DeviceRole, _ path: String) -> PlistValue? {
        guard case .success(let v)? = try? driver.call(role, "query \(path)") else { return nil }
        return v
    }

    /// A list of strings the app recorded (`log`, `results`).
    func strings(_ role: DeviceRole, _ path: String) -> [String] {
        query(role, path)?.arrayValue?.compactMap(\.stringValue) ?? []
    }

    func bools(_ role: DeviceRole, _ path: String) -> [Bool] {
        query(role, path)?.arrayValue?.compactMap(\.boolValue) ?? []
    }

    func int(_ role: DeviceRole, _ path: String) -> Int? { query(role, path)?.intValue.map(Int.init) }

    /// Removes what the apps wrote outside the session's directories.
    func cleanUp() {
        for role in DeviceRole.allCases {
            if let d = query(role, "directory")?.stringValue { try? FileManager.default.removeItem(atPath: d) }
        }
    }
}

