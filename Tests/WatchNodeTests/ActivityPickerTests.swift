import PeerLinkCore
import FitnessDomain
import CountdownDomain
import Testing

@testable import WatchNode

@Suite struct ActivityPickerTests {
    @Test func crownScrollsRunningWalkingCyclingAndClampsAtTheEnds() {
        var p = ActivityPicker()
        #expect(p.activity == .running)
        var seen: [(moved: Bool, activity: WorkoutActivityType)] = []
        for detent in [-1, +1, +1, +1, -1] {
            let moved = p.onCrown(detent)
            seen.append((moved, p.activity))
        }
        #expect(seen.map(\.moved) == [false, true, true, false, true], "clamped at both ends, no wrap")
        #expect(seen.map(\.activity) == [.running, .walking, .cycling, .cycling, .walking])
    }

    @Test func largeTurnsClampToo() {
        var p = ActivityPicker()
        p.onCrown(Int.max)
        #expect(p.activity == .cycling)
        p.onCrown(Int.min)
        #expect(p.activity == .running)
    }

    @Test func locationIsSelectable() {
        var p = ActivityPicker()
        #expect(p.location == .outdoor)
        let changed = [p.select(location: .indoor), p.select(location: .indoor)]
        #expect(changed == [true, false])
        p.onCrown(2)
        #expect(p.configuration == WorkoutConfiguration(activity: .cycling, location: .indoor))
        #expect(p.text(.ja) == "  ランニング\n  ウォーキング\n▶ サイクリング\n屋内")
        #expect(p.jsonValue()["activity"] == "cycling" && p.jsonValue()["location"] == "indoor")
    }
}
