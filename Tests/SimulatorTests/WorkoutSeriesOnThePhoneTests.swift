import Testing
@testable import PeerLinkScenarios
import PeerLinkCore

/// A saved workout reaches the phone as series records: the phone's statistics, widget and
/// counts read the samples they hold, as soon as they merge.
@Suite("A workout's series on the phone")
struct WorkoutSeriesOnThePhoneTests {
    @Test func theForegroundWidgetShowsTheWorkoutsEnergyWhenItsSeriesMerge() throws {
        let (r, _) = try SimTest.run("""
            scenario "series reach the phone"
            07:00:00 phone authorize grant all
            +0s phone app foreground
            07:00:00 watch workout start running
            07:00:01 every 1s for 2m: watch hr 120..160
            07:02:01 watch energy 48.5
            +1s watch workout end
            +10s expect phone samples count == 121
            +0s expect phone samples count heartRate == 120
            +0s expect phone count series == 3
            +0s expect phone widget medium kcal == 48.5
            +0s expect converged
            """)
        #expect(r.passed, "\(r.text())")
    }
}
