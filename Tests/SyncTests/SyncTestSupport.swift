import Foundation
import Testing
import PeerLinkScenarios
import PhoneWatch

/// The scenario library, as the SyncTests read it.
enum Library {
    /// The repository root: the scenario files are read from there.
    static var repositoryRoot: String {
        let file = #filePath
        return String(file[..<file.range(of: "/Tests/SyncTests/")!.lowerBound])
    }

    /// The file names of the library, sorted (`morning-run.scenario`…).
    static var names: [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: repositoryRoot + "/scenarios")) ?? []
        return names.filter { $0.hasSuffix(".scenario") }.sorted()
    }

    /// Reads and parses one scenario of the library.
    static func load(_ name: String) throws -> Scenario {
        let path = repositoryRoot + "/scenarios/" + name
        let text = try #require(readScenarioFile(path), "cannot read \(path)")
        return try ScenarioParser.parse(text, file: "scenarios/" + name)
    }
}
