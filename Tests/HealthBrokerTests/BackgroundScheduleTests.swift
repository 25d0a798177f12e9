@testable import HealthBroker
import HealthModel
import Testing

/// The background-delivery policy on its own: every instant is made here (`t0` plus durations),
/// so no test waits or depends on the machine's clock.
@Suite(.timeLimit(.minutes(10))) struct BackgroundScheduleTests {
    typealias Key = BackgroundSchedule.Key

    let t0 = ContinuousClock.now
    let steps = Key(appID: "org.test.app", typeIdentifier: "HKQuantityTypeIdentifierStepCount")
    let heartRate = Key(appID: "org.test.app", typeIdentifier: "HKQuantityTypeIdentifierHeartRate")
    let policy = BackgroundDeliveryPolicy(acknowledgementTimeout: .seconds(60), firstBackoff: .seconds(300),
                                          maximumBackoff: .seconds(1200), unacknowledgedLaunchLimit: 3)

    func schedule(_ registrations: [(Key, HKUpdateFrequency)]) -> BackgroundSchedule {
        var schedule = BackgroundSchedule(policy: policy)
        for (key, frequency) in registrations { schedule.register(key, frequency: frequency) }
        return schedule
    }

    /// Takes what is due at `time` and reports it dispatched and launched then, as the loop does
    /// with an agent that started the app.
    func launch(_ schedule: inout BackgroundSchedule, at time: ContinuousClock.Instant) -> [String] {
        let due = schedule.takeDue(now: time)
        for launch in due {
            schedule.noteDispatched(appID: launch.appID, typeIdentifiers: launch.typeIdentifiers, now: time)
            schedule.noteLaunched(appID: launch.appID, typeIdentifiers: launch.typeIdentifiers, now: time)
        }
        return due.flatMap(\.typeIdentifiers)
    }

    // MARK: The agent's outcomes

    /// Takes what is due at `time` and reports it sent to the agent, which has not answered yet.
    func dispatch(_ schedule: inout BackgroundSchedule, at time: ContinuousClock.Instant) -> [String] {
        let due = schedule.takeDue(now: time)
        for launch in due { schedule.noteDispatched(appID: launch.appID, typeIdentifiers: launch.typeIdentifiers, now: time) }
        return due.flatMap(\.typeIdentifiers)
    }

    // MARK: Pending work (what keeps a socket-activated healthd from exiting idle)

    /// From the visible change to the acknowledgement, a launch is owed or under way; before
    /// and after, nothing waits and healthd may exit.
    @Test func aLaunchIsPendingWorkFromTheChangeUntilItsAcknowledgement() {
        var schedule = schedule([(steps, .hourly)])
        #expect(!schedule.hasPendingWork)
        schedule.noteVisibleChange(steps)
        #expect(schedule.hasPendingWork)
        _ = dispatch(&schedule, at: t0)
        #expect(schedule.hasPendingWork)
        schedule.noteLaunched(appID: steps.appID, typeIdentifiers: [steps.typeIdentifier], now: t0)
        #expect(schedule.hasPendingWork)
        schedule.noteAcknowledged(steps)
        #expect(!schedule.hasPendingWork)
        // A change within the hour is owed until the period ends: still pending work.
        schedule.noteVisibleChange(steps)
        #expect(schedule.takeDue(now: t0 + .seconds(60)).isEmpty)
        #expect(schedule.hasPendingWork)
    }

    @Test func aSuspendedRegistrationIsNotPendingWork() {
        var schedule = schedule([(steps, .immediate)])
        for attempt in 0..<3 {
            schedule.noteVisibleChange(steps)
            let time = t0 + .seconds(10_000 * attempt)
            _ = launch(&schedule, at: time)
            schedule.expire(now: time + .seconds(61))
        }
        #expect(schedule.entries[steps]?.phase == .suspended)
        #expect(!schedule.hasPendingWork)
    }

    @Test func aSkippedLaunchIsRetriedWhenTheRunningInstanceExits() {
        var schedule = schedule([(steps, .immediate)])
        schedule.noteVisibleChange(steps)
        #expect(dispatch(&schedule, at: t0) == [steps.typeIdentifier])
        schedule.noteStillRunning(appID: steps.appID, typeIdentifiers: [steps.typeIdentifier])
        // Not an unanswered launch, no back-off: just nothing until the instance exits.
        #expect(schedule.takeDue(now: t0 + .seconds(3600)).isEmpty)
        #expect(schedule.nextDeadline(after: t0) == nil)
        schedule.noteExited(appID: steps.appID, now: t0 + .seconds(5))
        #expect(dispatch(&schedule, at: t0 + .seconds(5)) == [steps.typeIdentifier])
    }

    @Test func theRunningInstancesAcknowledgementClearsASkippedLaunch() {
        var schedule = schedule([(steps, .immediate)])
        schedule.noteVisibleChange(steps)
        _ = dispatch(&schedule, at: t0)
        schedule.noteStillRunning(appID: steps.appID, typeIdentifiers: [steps.typeIdentifier])
        schedule.noteAcknowledged(steps)
        schedule.noteExited(appID: steps.appID, now: t0 + .seconds(5))
        #expect(schedule.takeDue(now: t0 + .seconds(5)).isEmpty)
    }

    @Test func anAppExitingBeforeItsAcknowledgementBacksOffAtOnce() {
        var schedule = schedule([(steps, .immediate)])
        schedule.noteVisibleChange(steps)
        #expect(launch(&schedule, at: t0) == [steps.typeIdentifier])
        schedule.noteExited(appID: steps.appID, now: t0 + .seconds(1))
        // Not after the acknowledgement timeout: after the first back-off, from the exit.
        #expect(schedule.takeDue(now: t0 + .seconds(1) + schedule.policy.firstBackoff - .seconds(1)).isEmpty)
        #expect(dispatch(&schedule, at: t0 + .seconds(1) + schedule.policy.firstBackoff) == [steps.typeIdentifier])
    }

    @Test func aFailedLaunchCountsAsUnanswered() {
        var schedule = schedule([(steps, .immediate)])
        schedule.noteVisibleChange(steps)
        for attempt in 0..<schedule.policy.unacknowledgedLaunchLimit {
            let now = t0 + .seconds(86_400 * attempt)
            #expect(dispatch(&schedule, at: now) == [steps.typeIdentifier], "attempt \(attempt)")
            schedule.noteLaunchFailed(appID: steps.appID, typeIdentifiers: [steps.typeIdentifier], now: now)
        }
        #expect(schedule.entries[steps]?.phase == .suspended)
    }

    @Test func anAgentThatNeverAnswersCountsAsUnansweredAfterTheTimeout() {
        var schedule = schedule([(steps, .immediate)])
        schedule.noteVisibleChange(steps)
        _ = dispatch(&schedule, at: t0)
        schedule.expire(now: t0 + schedule.policy.acknowledgementTimeout)
        #expect(schedule.entries[steps]?.unacknowledgedLaunches == 1)
        #expect(schedule.entries[steps]?.phase == .idle)
    }

    @Test func nothingIsDueWithoutAVisibleChange() {
        var schedule = schedule([(steps, .immediate)])
        #expect(schedule.takeDue(now: t0).isEmpty)
        #expect(schedule.nextDeadline(after: t0) == nil)
    }

    @Test func immediateLaunchesAtOnceThenWaitsForTheAcknowledgement() {
        var schedule = schedule([(steps, .immediate)])
        schedule.noteVisibleChange(steps)
        #expect(launch(&schedule, at: t0) == [steps.typeIdentifier])
        // More changes while the launched app has not acknowledged: no second launch.
        schedule.noteVisibleChange(steps)
        #expect(launch(&schedule, at: t0 + .seconds(5)).isEmpty)
        schedule.noteAcknowledged(steps)
        #expect(launch(&schedule, at: t0 + .seconds(6)).isEmpty, "the acknowledged update covered those changes")
        schedule.noteVisibleChange(steps)
        #expect(launch(&schedule, at: t0 + .seconds(7)) == [steps.typeIdentifier])
    }

    @Test(arguments: [HKUpdateFrequency.hourly, .daily, .weekly])
    func aPeriodicFrequencyLaunchesAtMostOncePerPeriodCoalescingChanges(_ frequency: HKUpdateFrequency) {
        let period = frequency.minimumInterval
        var schedule = schedule([(steps, frequency)])
        schedule.noteVisibleChange(steps)
        #expect(launch(&schedule, at: t0) == [steps.typeIdentifier], "the first change launches at once")
        schedule.noteAcknowledged(steps)
        for minute in 1...5 {
            schedule.noteVisibleChange(steps)
            #expect(launch(&schedule, at: t0 + .seconds(60 * minute)).isEmpty)
        }
        #expect(schedule.nextDeadline(after: t0 + .seconds(300)) == t0 + period)
        #expect(launch(&schedule, at: t0 + period - .seconds(1)).isEmpty)
        #expect(launch(&schedule, at: t0 + period) == [steps.typeIdentifier], "five changes, one launch")
    }

    @Test func anUnacknowledgedLaunchIsRetriedWithGrowingBackoffThenSuspended() {
        var schedule = schedule([(steps, .immediate)])
        schedule.noteVisibleChange(steps)
        var time = t0
        #expect(launch(&schedule, at: time) == [steps.typeIdentifier])
        #expect(schedule.nextDeadline(after: time) == time + .seconds(60))

        // First timeout: retry 300 s after it.
        time += .seconds(60)
        schedule.expire(now: time)
        #expect(launch(&schedule, at: time + .seconds(299)).isEmpty)
        #expect(schedule.nextDeadline(after: time) == time + .seconds(300))
        time += .seconds(300)
        #expect(launch(&schedule, at: time) == [steps.typeIdentifier])

        // Second timeout: the wait doubles.
        time += .seconds(60)
        schedule.expire(now: time)
        #expect(launch(&schedule, at: time + .seconds(599)).isEmpty)
        time += .seconds(600)
        #expect(launch(&schedule, at: time) == [steps.typeIdentifier])

        // Third: suspended, whatever changes or time passes.
        time += .seconds(60)
        schedule.expire(now: time)
        #expect(schedule.entries[steps]?.phase == .suspended)
        schedule.noteVisibleChange(steps)
        #expect(launch(&schedule, at: time + .seconds(86_400)).isEmpty)
        #expect(schedule.nextDeadline(after: time) == nil)
    }

    @Test func anAcknowledgementOrEnablingAgainResumesASuspendedRegistration() {
        var schedule = schedule([(steps, .immediate), (heartRate, .immediate)])
        var time = t0
        for key in [steps, heartRate] { schedule.noteVisibleChange(key) }
        for _ in 0..<3 {
            _ = launch(&schedule, at: time)
            time += .seconds(60)
            schedule.expire(now: time)
            time += .seconds(1200)
        }
        #expect(schedule.entries[steps]?.phase == .suspended)
        #expect(schedule.entries[heartRate]?.phase == .suspended)

        schedule.noteAcknowledged(steps)  // the user ran the app and it observed steps
        schedule.register(heartRate, frequency: .immediate)  // the app enabled heart rate again
        schedule.noteVisibleChange(steps)
        #expect(launch(&schedule, at: time) == [heartRate.typeIdentifier, steps.typeIdentifier])
    }

    @Test func theBackoffDoublesUpToItsMaximum() {
        let schedule = schedule([])
        #expect((1...5).map { schedule.backoff(after: $0) } == [.seconds(300), .seconds(600), .seconds(1200), .seconds(1200), .seconds(1200)])
    }

    @Test func oneLaunchPerAppCarriesEveryDueTypeAndNoSecondLaunchWhileOneIsAwaited() {
        var schedule = schedule([(steps, .immediate), (heartRate, .hourly)])
        let other = Key(appID: "org.test.other", typeIdentifier: steps.typeIdentifier)
        schedule.register(other, frequency: .immediate)
        for key in [steps, heartRate, other] { schedule.noteVisibleChange(key) }
        let due = schedule.takeDue(now: t0)
        #expect(due.map(\.appID) == ["org.test.app", "org.test.other"])
        #expect(due.first?.typeIdentifiers == [heartRate.typeIdentifier, steps.typeIdentifier])
        for launch in due {
            schedule.noteDispatched(appID: launch.appID, typeIdentifiers: launch.typeIdentifiers, now: t0)
            schedule.noteLaunched(appID: launch.appID, typeIdentifiers: launch.typeIdentifiers, now: t0)
        }

        // Heart rate acknowledged, steps still awaited: the app is not launched again for heart rate.
        schedule.noteAcknowledged(heartRate)
        schedule.noteVisibleChange(heartRate)
        #expect(launch(&schedule, at: t0 + .seconds(3600)).isEmpty)
        schedule.noteAcknowledged(steps)
        #expect(launch(&schedule, at: t0 + .seconds(3600)) == [heartRate.typeIdentifier])
    }

    @Test func aLaunchThatNeverReachedTheAgentIsDueAgainAndStartsNoTimer() {
        var schedule = schedule([(steps, .hourly)])
        schedule.noteVisibleChange(steps)
        #expect(schedule.takeDue(now: t0).count == 1)
        #expect(schedule.takeDue(now: t0).isEmpty, "handed to the agent already")
        #expect(schedule.nextDeadline(after: t0) == nil, "no acknowledgement is awaited for an undelivered launch")
        schedule.noteUndelivered(appID: steps.appID, typeIdentifiers: [steps.typeIdentifier])
        // Hours later (no agent meanwhile), the waiting launch is still one launch.
        #expect(launch(&schedule, at: t0 + .seconds(5 * 3600)) == [steps.typeIdentifier])
    }

    @Test func disablingDropsAPendingLaunch() {
        var schedule = schedule([(steps, .immediate)])
        schedule.noteVisibleChange(steps)
        schedule.unregister(steps)
        #expect(schedule.takeDue(now: t0).isEmpty)
        schedule.noteVisibleChange(steps)
        #expect(schedule.takeDue(now: t0).isEmpty, "a change of an unregistered type is ignored")
    }

    @Test func changingTheFrequencyKeepsTheLastLaunch() {
        var schedule = schedule([(steps, .immediate)])
        schedule.noteVisibleChange(steps)
        _ = launch(&schedule, at: t0)
        schedule.noteAcknowledged(steps)
        schedule.register(steps, frequency: .daily)
        schedule.noteVisibleChange(steps)
        #expect(launch(&schedule, at: t0 + .seconds(3600)).isEmpty)
        #expect(launch(&schedule, at: t0 + .seconds(86_400)) == [steps.typeIdentifier])
    }

    // MARK: Held while the app observes the type

    /// A change sent to a running observer is not delivered until acknowledged: held (no
    /// launch) while the query runs, due the moment it ends unacknowledged, cleared only by an
    /// acknowledgement. Another type of the same app is not held.
    @Test func aChangeHeldByARunningObserverIsDueWhenTheObserverEndsUnacknowledged() {
        var schedule = schedule([(steps, .immediate), (heartRate, .immediate)])
        schedule.noteVisibleChange(steps)
        #expect(schedule.takeDue(now: t0) { $0 == steps }.isEmpty, "held while the app observes steps")
        #expect(schedule.hasPendingWork, "still owed while held")
        #expect(schedule.takeDue(now: t0).map(\.typeIdentifiers) == [[steps.typeIdentifier]], "due once the observer ended")

        var acknowledged = self.schedule([(steps, .immediate)])
        acknowledged.noteVisibleChange(steps)
        #expect(acknowledged.takeDue(now: t0) { $0 == steps }.isEmpty)
        acknowledged.noteAcknowledged(steps)
        #expect(acknowledged.takeDue(now: t0).isEmpty, "the observer's acknowledgement delivered it")
        #expect(!acknowledged.hasPendingWork)
    }

    /// The agent's outcome can reach the loop before the event that the launch was sent (found
    /// by BackgroundUnacknowledgedUpdateEndToEndTests on a loaded machine): the outcome still
    /// counts. Before, an "already running" that overtook it was dropped, the later event left
    /// the launch awaiting an outcome that had come already, and it backed off instead of being
    /// relaunched at the app's exit.
    @Test func anOutcomeThatOvertakesTheDispatchStillCounts() {
        var schedule = schedule([(steps, .immediate)])
        schedule.noteVisibleChange(steps)
        #expect(schedule.takeDue(now: t0).count == 1)
        schedule.noteStillRunning(appID: steps.appID, typeIdentifiers: [steps.typeIdentifier])
        schedule.noteDispatched(appID: steps.appID, typeIdentifiers: [steps.typeIdentifier], now: t0)
        schedule.noteExited(appID: steps.appID, now: t0)
        #expect(schedule.takeDue(now: t0).map(\.typeIdentifiers) == [[steps.typeIdentifier]], "relaunched at the exit")

        schedule.noteLaunched(appID: steps.appID, typeIdentifiers: [steps.typeIdentifier], now: t0)
        schedule.noteDispatched(appID: steps.appID, typeIdentifiers: [steps.typeIdentifier], now: t0)
        #expect(schedule.entries[steps]?.phase == .awaitingAcknowledgement(since: t0))
    }

    // MARK: Launches that could not be sent, checks that could not read the store

    /// The agent refused the offer (or the re-check could not read the store): the launch
    /// stays owed with a deadline, is not due before it, and is taken again when it arrives —
    /// with no other event. Without the retry it had no deadline and waited for the next change.
    @Test func aRefusedOfferLeavesADeadlineAndIsRetriedWhenItArrives() {
        var schedule = schedule([(steps, .immediate)])
        schedule.noteVisibleChange(steps)
        #expect(schedule.takeDue(now: t0).map(\.typeIdentifiers) == [[steps.typeIdentifier]])
        schedule.noteSendFailed(appID: steps.appID, typeIdentifiers: [steps.typeIdentifier], now: t0)
        #expect(schedule.nextDeadline(after: t0) == t0 + policy.firstRetryDelay)
        #expect(schedule.hasPendingWork)
        #expect(schedule.takeDue(now: t0 + policy.firstRetryDelay / 2).isEmpty)
        #expect(schedule.takeDue(now: t0 + policy.firstRetryDelay).map(\.typeIdentifiers) == [[steps.typeIdentifier]])
        // Healthd's failure is not the app's: no unanswered launch, no back-off, no suspension.
        #expect(schedule.entries[steps]?.unacknowledgedLaunches == 0)
        #expect(schedule.entries[steps]?.retryNotBefore == nil)
    }

    /// Failed sends in a row wait longer each time, never past the cap, and never suspend the
    /// registration; a send that reaches the agent ends the series.
    @Test func failedSendsBackOffBoundedAndNeverSuspend() {
        var schedule = schedule([(steps, .immediate)])
        schedule.noteVisibleChange(steps)
        var now = t0
        var waits: [Duration] = []
        for _ in 0..<12 {
            #expect(schedule.takeDue(now: now).count == 1)
            schedule.noteSendFailed(appID: steps.appID, typeIdentifiers: [steps.typeIdentifier], now: now)
            guard let next = schedule.nextDeadline(after: now) else {
                Issue.record("a failed send left no deadline")
                return
            }
            waits.append(now.duration(to: next))
            now = next
        }
        #expect(waits.prefix(4) == [.seconds(1), .seconds(2), .seconds(4), .seconds(8)])
        #expect(waits.max() == policy.maximumRetryDelay)
        #expect(schedule.entries[steps]?.phase == .idle)
        _ = dispatch(&schedule, at: now)
        #expect(schedule.entries[steps]?.failedSends == 0)
        #expect(schedule.entries[steps]?.sendRetryAt == nil)
    }

    /// A change check that could not read the store (locked) is owed: it has a deadline, counts
    /// as pending work (healthd does not exit idle), is due when the deadline arrives, and a
    /// successful check ends it.
    @Test func aFailedCheckLeavesADeadlineAndIsDueWhenItArrives() {
        var schedule = schedule([(steps, .immediate), (heartRate, .immediate)])
        #expect(!schedule.hasPendingWork)
        schedule.noteCheckFailed(steps, now: t0)
        #expect(schedule.nextDeadline(after: t0) == t0 + policy.firstRetryDelay)
        #expect(schedule.hasPendingWork)
        #expect(schedule.checksDue(now: t0 + policy.firstRetryDelay / 2).isEmpty)
        #expect(schedule.checksDue(now: t0 + policy.firstRetryDelay) == [steps])
        schedule.noteCheckFailed(steps, now: t0 + policy.firstRetryDelay)
        #expect(schedule.nextDeadline(after: t0 + policy.firstRetryDelay) == t0 + policy.firstRetryDelay * 3)
        schedule.noteChecked(steps)
        #expect(schedule.checksDue(now: t0 + .seconds(3600)).isEmpty)
        #expect(schedule.nextDeadline(after: t0) == nil)
        #expect(!schedule.hasPendingWork)
    }

    /// A launch refused by an agent that was going away is sent to the next agent as soon as it
    /// attaches, not after the retry delay.
    @Test func aNewAgentTakesARefusedLaunchAtOnce() {
        var schedule = schedule([(steps, .immediate)])
        schedule.noteVisibleChange(steps)
        _ = schedule.takeDue(now: t0)
        schedule.noteSendFailed(appID: steps.appID, typeIdentifiers: [steps.typeIdentifier], now: t0)
        #expect(schedule.takeDue(now: t0).isEmpty)
        schedule.noteAgentAttached()
        #expect(schedule.takeDue(now: t0).map(\.typeIdentifiers) == [[steps.typeIdentifier]])
    }

    /// The app took the update through a running observer (an acknowledgement) while a failed
    /// send waited for its retry: the series ends, so the next change is due at once, not at the
    /// old retry's deadline. Without the reset it waited there.
    @Test func anAcknowledgementEndsTheSendRetries() {
        var schedule = schedule([(steps, .immediate)])
        schedule.noteVisibleChange(steps)
        _ = schedule.takeDue(now: t0)
        schedule.noteSendFailed(appID: steps.appID, typeIdentifiers: [steps.typeIdentifier], now: t0)
        let second = t0 + policy.firstRetryDelay
        _ = schedule.takeDue(now: second)
        schedule.noteSendFailed(appID: steps.appID, typeIdentifiers: [steps.typeIdentifier], now: second)
        #expect(schedule.entries[steps]?.sendRetryAt == second + policy.firstRetryDelay * 2)
        schedule.noteAcknowledged(steps)
        #expect(schedule.entries[steps]?.failedSends == 0)
        #expect(!schedule.hasPendingWork)
        schedule.noteVisibleChange(steps)
        #expect(schedule.takeDue(now: second).map(\.typeIdentifiers) == [[steps.typeIdentifier]])
    }

    /// A check that reads the store after failed ones ends the series: the next failure waits
    /// the first delay again, not the doubled one. Without the reset it waited 8 s here.
    @Test func aSuccessfulCheckStartsTheNextFailureAtTheFirstDelay() {
        var schedule = schedule([(steps, .immediate)])
        for _ in 0..<3 { schedule.noteCheckFailed(steps, now: t0) }
        #expect(schedule.nextDeadline(after: t0) == t0 + policy.firstRetryDelay * 4)
        schedule.noteChecked(steps)
        schedule.noteCheckFailed(steps, now: t0)
        #expect(schedule.nextDeadline(after: t0) == t0 + policy.firstRetryDelay)
    }

    /// A retried send waits for a running observer like any launch: at its deadline it is not
    /// taken while the app observes the type (that observer is sent the change), and it is due
    /// the moment the observer ends unacknowledged.
    @Test func aRetriedSendIsHeldWhileTheAppObserves() {
        var schedule = schedule([(steps, .immediate)])
        schedule.noteVisibleChange(steps)
        _ = schedule.takeDue(now: t0)
        schedule.noteSendFailed(appID: steps.appID, typeIdentifiers: [steps.typeIdentifier], now: t0)
        let retry = t0 + policy.firstRetryDelay
        #expect(schedule.takeDue(now: retry) { $0 == steps }.isEmpty, "held while the app observes steps")
        #expect(schedule.hasPendingWork)
        #expect(schedule.takeDue(now: retry).map(\.typeIdentifiers) == [[steps.typeIdentifier]], "due once the observer ended")
    }

    /// A launch withdrawn at its re-check (revoked meanwhile) ends its series: the next change's
    /// first failed send waits the first delay again, not a doubled one.
    @Test func aWithdrawnLaunchEndsItsSendRetries() {
        var schedule = schedule([(steps, .immediate)])
        schedule.noteVisibleChange(steps)
        var now = t0
        for _ in 0..<3 {
            _ = schedule.takeDue(now: now)
            schedule.noteSendFailed(appID: steps.appID, typeIdentifiers: [steps.typeIdentifier], now: now)
            now = schedule.nextDeadline(after: now) ?? now
        }
        _ = schedule.takeDue(now: now)
        schedule.noteWithdrawn(steps)
        #expect(!schedule.hasPendingWork)
        #expect(schedule.nextDeadline(after: now) == nil)
        schedule.noteVisibleChange(steps)
        #expect(schedule.takeDue(now: now).count == 1)
        schedule.noteSendFailed(appID: steps.appID, typeIdentifiers: [steps.typeIdentifier], now: now)
        #expect(schedule.nextDeadline(after: now) == now + policy.firstRetryDelay)
    }

    /// The agent decides "already running", the instance then exits, and its exit is reported
    /// before that outcome (the agent's reaper and its launch handler race to its outcome queue):
    /// the instance named is gone, so the launch is due again at once. Before, it waited for an
    /// exit already reported — forever, and every later launch of the app with it.
    @Test func anExitReportedBeforeTheAlreadyRunningOutcomeLeavesTheLaunchDue() {
        var schedule = schedule([(steps, .immediate)])
        schedule.noteVisibleChange(steps)
        _ = dispatch(&schedule, at: t0)
        schedule.noteExited(appID: steps.appID, now: t0)
        schedule.noteStillRunning(appID: steps.appID, typeIdentifiers: [steps.typeIdentifier])
        #expect(schedule.entries[steps]?.phase == .idle)
        #expect(schedule.takeDue(now: t0).map(\.typeIdentifiers) == [[steps.typeIdentifier]])

        // An exit before a launch's own outcome (an older instance) is forgotten by the next
        // dispatch: that launch's "already running" waits for the exit as usual.
        var later = self.schedule([(steps, .immediate)])
        later.noteVisibleChange(steps)
        _ = dispatch(&later, at: t0)
        later.noteExited(appID: steps.appID, now: t0)
        later.noteLaunched(appID: steps.appID, typeIdentifiers: [steps.typeIdentifier], now: t0)
        later.noteAcknowledged(steps)
        later.noteVisibleChange(steps)
        _ = dispatch(&later, at: t0)
        later.noteStillRunning(appID: steps.appID, typeIdentifiers: [steps.typeIdentifier])
        #expect(later.entries[steps]?.phase == .waitingForExit)
    }
}
