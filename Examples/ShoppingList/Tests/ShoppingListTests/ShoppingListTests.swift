#if canImport(Glibc)
import Glibc
#endif
import Testing
import PeerLinkCore
import PeerLinkPOSIX
import PeerLinkScenarios
import ShoppingListHarness

/// The shopping list (app code written against `WCSession` only) under PeerLink's simulator,
/// from outside PeerLink's package: a scenario in virtual time, a sweep of random faults that
/// always converges, and the build with the classic bug found, shrunk and replayed.
@Suite struct ShoppingListTests {
    static let packageDirectory = "/" + #filePath.split(separator: "/").dropLast(3).joined(separator: "/")
    static let file = "scenarios/two-lists-one-list.scenario"
    /// Every fault class, store rollbacks included.
    static let classes = Set(FaultClass.allCases)

    static func scenario() throws -> Scenario {
        let text = try #require(readTextFile(packageDirectory + "/" + file), "no scenario at \(file)")
        return try ScenarioParser.parse(text, file: file)
    }

    static func options(_ apps: SimApps) -> SweepOptions {
        var o = SweepOptions(apps: apps)
        o.classes = classes
        return o
    }

    @Test func theScenarioPassesInVirtualTime() throws {
        let result = SimConductor(apps: .shoppingList).run(try Self.scenario())
        #expect(result.passed, "\(result.checks.filter { !$0.passed }.map { "\($0.description): \($0.detail)" })\n\(result.error ?? "")")
        #expect(result.checks.count >= 7)
    }

    @Test func aSweepOfRandomFaultsAlwaysConverges() throws {
        let seeds = (1...200).map(UInt64.init)
        let outcomes = SweepSession(scenario: try Self.scenario(), seeds: seeds, options: Self.options(.shoppingList), jobs: 2).run()
        #expect(outcomes.count == seeds.count)
        for o in outcomes where !o.passed {
            Issue.record("\(SweepSession.failureText(o, file: Self.file, classes: Self.classes, program: "shopping-sim"))")
        }
    }

    /// The build where an arriving context replaces the list: the scripted run passes (its
    /// edits never cross), the sweep finds seeds where they do, shrinks each to a fault or two,
    /// and the replay command it prints, run as a process, prints the same failure byte for byte.
    @Test func theSweepFindsTheLastContextWinsBugAndItsReplayReproducesIt() throws {
        let scenario = try Self.scenario()
        #expect(SimConductor(apps: .shoppingListLastContextWins).run(scenario).passed)
        let outcomes = SweepSession(scenario: scenario, seeds: (1...12).map(UInt64.init), options: Self.options(.shoppingListLastContextWins), jobs: 2).run()
        let failed = try #require(outcomes.first { !$0.passed }, "the sweep did not find the bug")
        #expect(failed.problems.first?.contains("the apps' own states differ") == true, "\(failed.problems)")
        let shrunk = try #require(failed.shrunk)
        #expect(shrunk.faults.count >= 1 && shrunk.faults.count <= min(2, failed.faults.faults.count))

        let text = SweepSession.failureText(failed, file: Self.file, classes: Self.classes, scenario: scenario,
                                            program: "shopping-sim", options: " --apps last-context-wins")
        let lines = text.split(separator: "\n").map(String.init)
        for prefix in ["  replay: ", "  minimal: "] {
            let command = try #require(lines.first { $0.hasPrefix(prefix) }).dropFirst(prefix.count)
            let words = try #require(NodeCommand(line: String(command))?.words)
            #expect(words.first == "shopping-sim")
            let out = try Self.run(Array(words.dropFirst()))
            #expect(out.status == 1)
            let block = out.lines.drop { !$0.hasPrefix("FAIL seed") }.prefix(lines.count)
            if prefix == "  replay: " {
                #expect(Array(block) == lines, "the replay printed:\n\(out.lines.joined(separator: "\n"))")
            } else {
                #expect(block.first == lines.first, "the minimal schedule failed otherwise:\n\(out.lines.joined(separator: "\n"))")
            }
        }
    }

    @Test func theScenarioPassesWithEachSideAProcessOverTCP() throws {
        let bin = executableDirectory() + "/shopping-sim"
        let options = ConductorOptions(phone: NodeExecutable(path: bin, leadingArguments: ["node", "phone"]),
                                       watch: NodeExecutable(path: bin, leadingArguments: ["node", "watch"]))
        let result = ProcessConductor(options: options).run(try Self.scenario())
        #expect(result.passed, "\(result.checks.filter { !$0.passed }.map { "\($0.description): \($0.detail)" })\n\(result.error ?? "")")
    }

    /// Runs the package's `shopping-sim` (built beside this test bundle) in the package directory.
    static func run(_ arguments: [String]) throws -> (status: Int32, lines: [String]) {
        let child = try ChildProcess(name: "shopping-sim", path: executableDirectory() + "/shopping-sim", arguments: arguments,
                                     stderrPath: "/dev/null", workingDirectory: packageDirectory)
        child.closeInput()
        return try #require(child.finish(timeoutMs: 120_000))
    }
}
