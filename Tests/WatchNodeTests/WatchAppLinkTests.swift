import PeerLinkCore
import FitnessDomain
import Testing

@testable import WatchNode

/// The watch with a phone on the other end: two engines back to back, bytes passed by hand.
@Suite struct WatchAppLinkTests {
    @Test func stepGoalEditedOnThePhoneReachesTheRingsAndTheGauge() throws {
        let pair = try EnginePair()
        pair.connect()
        pair.onWatch("steps 3000 --over 30m")
        #expect(pair.watchValue("complication max")?.intValue == 10_000)
        pair.onPhone("goal 12000")
        #expect(pair.watchValue("settings step-goal")?.intValue == 12_000)
        #expect(pair.watchValue("rings steps goal")?.intValue == 12_000)
        #expect(pair.watchValue("rings steps fraction")?.doubleValue == 0.25)
        #expect(pair.watchValue("complication max")?.intValue == 12_000)
        #expect(pair.watchValue("complication value")?.intValue == 3_000)
        #expect(pair.watchValue("complication fraction")?.doubleValue == 0.25)
        // And the other way: the watch's edit reaches the phone's settings.
        #expect(pair.onWatch("settings step-goal 8000").isOK)
        #expect(pair.phone.ctx.replica.record(AppSettings.self, id: AppSettings.recordID)?.stepGoal == 8_000)
        #expect(!pair.onWatch("settings step-goal 999").isOK, "outside 1,000–100,000")
        #expect(pair.phone.ctx.replica.digestHex() == pair.watch.ctx.replica.digestHex())
    }

    @Test func phoneAndWatchStepsAreMergedWithoutDoubleCounting() throws {
        let pair = try EnginePair()
        pair.connect()
        // Watch: 1,000 steps over the last 10 minutes. Phone: 600 steps over the last 20
        // minutes, half of them overlapping the watch's → 1,000 + 300 = 1,300.
        pair.onWatch("steps 1000 --over 10m")
        pair.onPhone("steps 600 20")
        #expect(pair.watchValue("rings steps value")?.intValue == 1_300)
        #expect(pair.watchValue("steps today")?.intValue == 1_300)
        #expect(pair.watchValue("complication value")?.intValue == 1_300)
    }

    @Test func mirroringStopsWhileUnreachableAndResumesWithReachability() throws {
        let pair = try EnginePair()
        pair.connect()
        #expect(pair.watchValue("reachable") == .bool(true))
        pair.onWatch("workout start running")
        pair.advance(by: 5 * second)
        pair.onWatch("hr 130")
        let sentWhileUp = try #require(pair.watchValue("mirror sent")?.intValue)
        #expect(sentWhileUp == 2, "the start and the sample")
        #expect(pair.watch.app.link.lastMessage?["heartRateBpm"] == .double(130))
        pair.disconnect()
        pair.advance(by: 5 * second)
        pair.onWatch("hr 135")
        pair.onWatch("hr 136")
        #expect(pair.watchValue("mirror sent")?.intValue == sentWhileUp, "nothing is sent while unreachable")
        #expect(pair.watchValue("mirror skipped")?.intValue == 2)
        #expect(pair.watchValue("mirror last-skip")?.stringValue == "phone not reachable")
        pair.connect()
        #expect(pair.watchValue("mirror sent")?.intValue == sentWhileUp + 1, "reachability back: the latest metrics go at once")
        #expect(pair.watch.app.link.lastMessage?["heartRateBpm"] == .double(136))
        pair.advance(by: 5 * second)
        pair.onWatch("hr 140")
        #expect(pair.watchValue("mirror sent")?.intValue == sentWhileUp + 2)
        pair.onWatch("workout end")
        #expect(pair.watch.app.link.lastMessage?["type"]?.stringValue == MirrorStoppedMessage.type)
        #expect(pair.watchValue("mirror active") == .bool(false))
        #expect(pair.watchValue("workouts")?.intValue == 1 && HealthSampleSeries.allSamples(in: pair.phone.ctx.replica).count == 4,
                "nothing was lost while unreachable")
    }

    @Test func startWorkoutFromThePhoneIsCreditedFromItsStart() throws {
        let pair = try EnginePair()
        pair.connect()
        let runStart = pair.now - 3 * 60 * second
        let request = "{\"startWorkout\": {\"activity\": \"running\", \"startMs\": \(runStart)}}"
        #expect(pair.onPhone("send \(request)").isOK)
        #expect(pair.watchValue("workout state")?.stringValue == "running")
        #expect(pair.watchValue("workout id")?.stringValue == "workout-\(runStart)")
        #expect(pair.watchValue("workout activity")?.stringValue == "running")
        #expect(pair.watchValue("workout elapsed")?.intValue == 3 * 60 * second)
        // The same request again (a duplicate) changes nothing.
        pair.advance(by: 10 * second)
        pair.onPhone("send \(request)")
        #expect(pair.watchValue("workout elapsed")?.intValue == 3 * 60 * second + 10 * second)
        #expect(pair.watchValue("workouts")?.intValue == 0)
    }

    @Test func startRequestArrivingAgainAfterTheWorkoutWasSavedChangesNothing() throws {
        let pair = try EnginePair()
        pair.connect()
        let runStart = pair.now - 3 * 60 * second
        let request = "{\"startWorkout\": {\"activity\": \"running\", \"startMs\": \(runStart)}}"
        pair.onPhone("send \(request)")
        #expect(pair.watchValue("workout id")?.stringValue == "workout-\(runStart)")
        pair.advance(by: 27 * 60 * second)
        #expect(pair.onWatch("workout end").isOK)
        #expect(pair.watchValue("workouts")?.intValue == 1)
        // The fallback copy comes more than an hour after the run began: its start would be
        // clamped, but it names the same workout, which is saved.
        pair.disconnect()
        pair.advance(by: 60 * 60 * second)
        pair.onPhone("send \(request)")
        pair.connect()
        #expect(pair.watchValue("workout state")?.stringValue == "none")
        #expect(pair.watchValue("workouts")?.intValue == 1)
        #expect(pair.watchValue("workouts last id")?.stringValue == "workout-\(runStart)")
    }

    @Test func startRequestClampedTwiceStartsOneWorkout() throws {
        let pair = try EnginePair()
        pair.connect()
        let runStart = pair.now - 2 * 60 * 60 * second
        let request = "{\"startWorkout\": {\"activity\": \"running\", \"startMs\": \(runStart)}}"
        pair.onPhone("send \(request)")
        #expect(pair.watchValue("workout id")?.stringValue == "workout-\(runStart)", "named after the request")
        #expect(pair.watchValue("workout start")?.intValue == pair.now - WatchApp.maxStartCreditMs, "credited from an hour ago")
        pair.advance(by: 10 * 60 * second)
        #expect(pair.onWatch("workout end").isOK)
        // The second copy is clamped to another start (now − 1 h) but is the same request.
        pair.advance(by: 60 * second)
        pair.onPhone("send \(request)")
        #expect(pair.watchValue("workout state")?.stringValue == "none")
        #expect(pair.watchValue("workouts")?.intValue == 1)
    }

    @Test func complicationUserInfoFromThePhoneReloadsTheGauge() throws {
        let pair = try EnginePair()
        pair.connect()
        pair.onWatch("steps 1000")
        pair.onPhone("send {\"complication\": {\"todaySteps\": 8432, \"stepGoal\": 12000}}")
        #expect(pair.watchValue("complication value")?.intValue == 8_432)
        #expect(pair.watchValue("complication max")?.intValue == 12_000)
        #expect(pair.watchValue("complication label")?.stringValue == "8.4k")
        // A malformed push is refused and logged; nothing changes.
        pair.onPhone("send {\"complication\": {\"todaySteps\": -5}}")
        #expect(pair.watchValue("complication value")?.intValue == 8_432)
        #expect(pair.watchValue("errors last")?.stringValue?.contains("steps -5 out of range") == true)
        // The replicated goal changing later wins over the pushed one.
        pair.onPhone("goal 9000")
        #expect(pair.watchValue("complication max")?.intValue == 9_000)
    }

    @Test func pushedGoalOlderThanTheWatchsLaterGoalDoesNotPinTheGauge() throws {
        let pair = try EnginePair()
        pair.connect()
        pair.disconnect()
        pair.onPhone("goal 8000")
        let phoneWrite = try #require(AppSettings.stepGoalStamp(in: pair.phone.ctx.replica))
        pair.advance(by: 60 * second)
        pair.onPhone("push {\"complication\": {\"stepGoal\": 8000, \"stepGoalStamp\": \(phoneWrite.plistValue.jsonString())}}")
        pair.advance(by: 60 * second)
        pair.onWatch("settings step-goal 12000")
        pair.connect()
        #expect(pair.watch.app.link.complicationPushes > 0, "the push arrived")
        #expect(pair.watchValue("settings step-goal")?.intValue == 12_000, "the watch's later write wins the merge")
        #expect(pair.watchValue("complication max")?.intValue == 12_000, "and the gauge follows it")
        // A push naming a newer write than the watch holds stands (its settings record is
        // still on the way), until a write newer than it reaches the replica.
        let watchWrite = try #require(AppSettings.stepGoalStamp(in: pair.watch.ctx.replica))
        let ahead = HLCTimestamp(wallMs: watchWrite.wallMs + 1, counter: 0, replica: watchWrite.replica)
        pair.onPhone("push {\"complication\": {\"stepGoal\": 9000, \"stepGoalStamp\": \(ahead.plistValue.jsonString())}}")
        #expect(pair.watchValue("settings step-goal")?.intValue == 12_000)
        #expect(pair.watchValue("complication max")?.intValue == 9_000)
        pair.advance(by: 60 * second)
        pair.onPhone("goal 9500")
        #expect(pair.watchValue("complication max")?.intValue == 9_500)
    }

    @Test func countdownTopGoalFollowsThePhoneAndLocalMidnight() throws {
        let pair = try EnginePair()
        pair.connect()
        #expect(pair.watchValue("goal top title")?.stringValue == "none")
        pair.onPhone("countdown g1 Marathon 2026-06-11")
        #expect(pair.watchValue("goal top title")?.stringValue == "Marathon")
        #expect(pair.watchValue("goal top days")?.intValue == 10)
        let midnight = tokyo.startOfDay(CivilDate(year: 2026, month: 6, day: 2))
        #expect(pair.watch.app.nextDeadline(pair.watch.ctx) == midnight, "an app timer at local midnight")
        pair.disconnect()  // no heartbeats to step through for 17 hours
        pair.advance(to: midnight - 1)
        #expect(pair.watchValue("goal top days")?.intValue == 10)
        pair.advance(to: midnight)
        #expect(pair.watchValue("goal top days")?.intValue == 9)
    }

    @Test func workoutKeepsTheAppReachableInTheBackground() throws {
        let pair = try EnginePair()
        pair.connect()
        pair.onWatch("app background")
        #expect(pair.watchValue("reachable") == .bool(false))
        pair.onWatch("app foreground")
        pair.onWatch("workout prepare")
        pair.onWatch("app wrist-down")
        #expect(pair.watchValue("reachable") == .bool(true), "a prepared workout keeps the app running")
        pair.onWatch("workout start")
        pair.onWatch("workout pause")
        pair.onWatch("app background")
        #expect(pair.watchValue("reachable") == .bool(true), "so does a paused one")
        pair.onWatch("workout resume")
        pair.onWatch("workout end")
        #expect(pair.watchValue("reachable") == .bool(false))
        #expect(pair.phone.ctx.session.isReachable == false, "the phone sees it too")
    }
}
