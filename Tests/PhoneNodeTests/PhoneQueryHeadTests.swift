@testable import PhoneNode
import Testing

/// `answer` finds a query's first word in `PhoneApp.queryHeads`: the table holds exactly the
/// words the queries take (docs/PHONE.md), each with its kind.
@Suite struct PhoneQueryHeadTests {
    @Test func theTableHoldsEveryQueryWord() {
        let words: [PhoneApp.QueryHead: Set<String>] = [
            .health: ["steps", "energy", "hr", "sleep"], .dashboard: ["dashboard"], .history: ["history"], .settings: ["settings"],
            .authorization: ["authorization"], .samples: ["samples"], .widget: ["widget", "widgets"],
            .notification: ["notifications", "notification"], .export: ["export"], .countdown: ["goals", "goal", "profile"],
            .live: ["live"], .effect: ["effects", "effect"], .observer: ["observer"], .app: ["app"], .workouts: ["workouts"],
            .link: ["messages", "link-errors", "complication", "files", "context", "watch-start"],
        ]
        var expected: [String: PhoneApp.QueryHead] = [:]
        for (kind, set) in words { for w in set { expected[w] = kind } }
        #expect(PhoneApp.queryHeads == expected)
    }
}
