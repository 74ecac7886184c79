import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
import PeerLinkCore
import PeerLinkScenarios
import PhoneWatch

/// `sync-sim FILE… --junit PATH` (plain runs), read back by an XML parser as a CI server reads it.
@Suite struct RunJUnitReportTests {
    @Test func aFailureWhoseTextHoldsControlCharactersAndQuotesStillParsesAndReadsBack() throws {
        let text = """
            scenario "quotes 'and' <tags> & co"
            start 2026-06-01T07:00:00+09:00
            +1m expect phone samples count == 5
            """
        var r = SimConductor().run(try ScenarioParser.parse(text, file: "odd.scenario"))
        #expect(!r.passed)  // no sample, not five
        r.error = "a log line with a bell \u{7}, an escape \u{1B}[0m and a ' quote"
        let xml = RunReport.junit([r])
        let doc = try XMLDocument(xmlString: xml)
        let testcase = try #require(try doc.nodes(forXPath: "//testcase").first as? XMLElement)
        #expect(testcase.attribute(forName: "name")?.stringValue == "quotes 'and' <tags> & co")
        let failure = try #require(testcase.elements(forName: "failure").first)
        let message = try #require(failure.attribute(forName: "message")?.stringValue)
        #expect(message.contains("a ' quote") && message.contains("a bell \u{FFFD}"))
        #expect(failure.stringValue?.contains("expect phone samples count == 5") == true)
    }
}
