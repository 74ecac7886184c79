import Testing
@testable import PeerLinkCore
@testable import FitnessDomain

/// "Started running": three consecutive medium/high running samples, never while driving.
@Suite struct RunDetectionTests {
    let base: EpochMs = 1_780_000_000_000

    func s(_ second: Int64, _ flags: MotionActivityFlags, _ confidence: MotionConfidence = .high) -> MotionActivitySample {
        MotionActivitySample(atMs: base + second * 1000, flags: flags, confidence: confidence)
    }

    @Test func firesOnTheThirdConsecutiveMediumOrHighRunningSample() {
        var d = RunDetector()
        #expect(d.onMotionSample(s(0, .running, .medium), workoutActive: false) == .none)
        #expect(d.onMotionSample(s(30, [.running, .walking], .high), workoutActive: false) == .none)
        let third = d.onMotionSample(s(60, .running, .medium), workoutActive: false)
        #expect(third == .runStarted(RunStartEvent(runStartMs: base, detectedAtMs: base + 60_000)))
        #expect(d.isInRun)
        #expect(RunDetector.defaultRequiredConsecutive == 3)
    }

    @Test func neverFiresWhileDriving() {
        var d = RunDetector()
        let samples = (0..<20).map { s(Int64($0) * 10, [.running, .automotive], .high) }
        #expect(d.onMotionSamples(samples, workoutActive: false).isEmpty)
        #expect(!d.isInRun && d.streakCount == 0)
    }

    @Test func anAutomotiveSampleBreaksTheStreak() {
        var d = RunDetector()
        let samples = [
            s(0, .running), s(10, .running), s(20, [.running, .automotive]), s(30, .running), s(40, .running),
        ]
        #expect(d.onMotionSamples(samples, workoutActive: false).isEmpty)
        // The streak restarted at 30 s: the third sample after the car fires with that start.
        #expect(d.onMotionSamples([s(50, .running)], workoutActive: false) == [RunStartEvent(runStartMs: base + 30_000, detectedAtMs: base + 50_000)])
    }

    @Test func lowConfidenceBreaksTheStreak() {
        var d = RunDetector()
        let samples = [s(0, .running), s(10, .running), s(20, .running, .low), s(30, .running), s(40, .running)]
        #expect(d.onMotionSamples(samples, workoutActive: false).isEmpty)
        #expect(d.streakCount == 2)
    }

    @Test func doesNotFireAgainUntilTheRunEnds() {
        var d = RunDetector()
        let run = [s(0, .running), s(10, .running), s(20, .running)]
        #expect(d.onMotionSamples(run, workoutActive: false).count == 1)
        // Still running, even at low confidence: no second prompt.
        #expect(d.onMotionSamples([s(30, .running), s(40, .running, .low), s(50, .running), s(60, .running)], workoutActive: false).isEmpty)
        // A walking sample ends the run; the next run fires again.
        #expect(d.onMotionSamples([s(70, .walking)], workoutActive: false).isEmpty)
        #expect(!d.isInRun)
        let again = d.onMotionSamples([s(80, .running), s(90, .running), s(100, .running)], workoutActive: false)
        #expect(again == [RunStartEvent(runStartMs: base + 80_000, detectedAtMs: base + 100_000)])
    }

    @Test func aRunDuringAWorkoutNeverPrompts() {
        var d = RunDetector()
        #expect(d.onMotionSamples([s(0, .running), s(10, .running), s(20, .running)], workoutActive: true).isEmpty)
        // The workout ends mid-run: the same run still does not prompt.
        #expect(d.onMotionSamples([s(30, .running), s(40, .running), s(50, .running)], workoutActive: false).isEmpty)
    }

    @Test func olderSamplesAreIgnored() {
        var d = RunDetector()
        #expect(d.onMotionSample(s(10, .running), workoutActive: false) == .none)
        #expect(d.onMotionSample(s(5, .running), workoutActive: false) == .outOfOrder)
        #expect(d.streakCount == 1)
    }

    @Test func requiredCountIsConfigurable() {
        var d = RunDetector(requiredConsecutive: 5)
        let events = d.onMotionSamples((0..<5).map { s(Int64($0), .running, .medium) }, workoutActive: false)
        #expect(events == [RunStartEvent(runStartMs: base, detectedAtMs: base + 4000)])
    }

    @Test func promptTextIsTheSeedsWording() {
        let event = RunStartEvent(runStartMs: base, detectedAtMs: base + 60_000)
        let ja = event.makeNotification(language: .ja)
        #expect(ja.title == "ワークアウトを開始しますか？")
        #expect(ja.kind == .runDetected && ja.fireMs == base + 60_000 && ja.trigger == .at(base + 60_000))
        #expect(event.makeNotification(language: .en).title == "Start a workout?")
        var settings = AppSettings.defaults
        #expect(NotificationPolicy.shouldNotifyRunStart(settings: settings, workoutActive: false))
        #expect(!NotificationPolicy.shouldNotifyRunStart(settings: settings, workoutActive: true))
        settings.runDetectionEnabled = false
        #expect(!NotificationPolicy.shouldNotifyRunStart(settings: settings, workoutActive: false))
    }

    @Test func motionSampleRoundTripsThroughAPropertyList() {
        let sample = s(7, [.running, .walking], .medium)
        #expect(sample.plistValue["flags"] == "walking+running")
        #expect(MotionActivitySample(plistValue: sample.plistValue) == sample)
        #expect(MotionActivityFlags(name: "none") == [])
        #expect(MotionActivityFlags(name: "running+flying") == nil)
    }
}
