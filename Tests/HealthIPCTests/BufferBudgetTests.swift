import Foundation
import HealthIPC
import Synchronization
import Testing

/// The accounting of the broker-wide buffer bound (`BufferBudget`): a share per owner, a total,
/// a floor every owner keeps, and every claim given back exactly once.
@Suite(.timeLimit(.minutes(10))) struct BufferBudgetTests {
    static let mib = 1 << 20

    /// A claim that must not fit: `stop` says to give up the first time it is asked, so a claim
    /// that would wait returns nil instead.
    func claimWithoutWaiting(_ budget: BufferBudget, _ bytes: Int, for owner: String) -> BufferClaim? {
        budget.claimRequest(bytes, for: owner) { true }
    }

    @Test func anOwnerIsBoundByItsShare() {
        let budget = BufferBudget(total: 64 * Self.mib, perOwner: 8 * Self.mib, floor: 0)
        let first = claimWithoutWaiting(budget, 4 * Self.mib, for: "a")
        let second = claimWithoutWaiting(budget, 4 * Self.mib, for: "a")
        #expect(first != nil && second != nil)
        #expect(claimWithoutWaiting(budget, 1, for: "a") == nil, "one byte past the share fitted")
        // Another owner is not affected by the first one's share.
        #expect(claimWithoutWaiting(budget, 4 * Self.mib, for: "b") != nil)
        first?.release()
        #expect(claimWithoutWaiting(budget, 4 * Self.mib, for: "a") != nil, "a released claim did not make room")
        withExtendedLifetime(second) {}  // held to here: a claim freed is given back
    }

    @Test func theBrokerIsBoundByItsTotal() {
        let budget = BufferBudget(total: 8 * Self.mib, perOwner: 8 * Self.mib, floor: 0)
        let claims = ["a", "b"].compactMap { claimWithoutWaiting(budget, 4 * Self.mib, for: $0) }
        #expect(claims.count == 2)
        #expect(claimWithoutWaiting(budget, 1, for: "c") == nil, "a third owner went past the total")
        #expect(budget.inUse == 8 * Self.mib)
        withExtendedLifetime(claims) {}
    }

    @Test func theFloorLetsASmallCallThroughAtTheTotal() {
        let budget = BufferBudget(total: 8 * Self.mib, perOwner: 8 * Self.mib, floor: 64 << 10)
        let hog = claimWithoutWaiting(budget, 8 * Self.mib, for: "hog")
        #expect(hog != nil)
        // Within the floor: fits although the total is reached; one byte more does not.
        let small = claimWithoutWaiting(budget, 64 << 10, for: "victim")
        #expect(small != nil)
        #expect(claimWithoutWaiting(budget, 1, for: "victim") == nil)
        // The hog gets no floor beyond its share.
        #expect(claimWithoutWaiting(budget, 1, for: "hog") == nil)
        withExtendedLifetime((hog, small)) {}
    }

    @Test func aClaimLargerThanTheShareIsRefusedAtOnce() {
        let budget = BufferBudget(total: 64 * Self.mib, perOwner: 4 * Self.mib, floor: 0)
        // `stop` never says stop: a claim that could ever fit would wait here forever.
        #expect(budget.claimRequest(4 * Self.mib + 1, for: "a") { false } == nil)
    }

    @Test func everyClaimIsReleasedOnce() {
        let budget = BufferBudget(total: 64 * Self.mib, perOwner: 8 * Self.mib, floor: 0)
        let claim = claimWithoutWaiting(budget, 3 * Self.mib, for: "a")
        let other = claimWithoutWaiting(budget, 1 * Self.mib, for: "a")
        claim?.release()
        claim?.release()  // a call ended by its CANCEL and by its connection's end
        #expect(budget.inUse(by: "a") == 1 * Self.mib)
        other?.release()
        #expect(budget.inUse == 0)
        #expect(budget.inUse(by: "a") == 0)
    }

    @Test func repliesCountAndPassingTheShareIsReported() {
        let budget = BufferBudget(total: 64 * Self.mib, perOwner: 8 * Self.mib, floor: 0)
        #expect(budget.addReply(8 * Self.mib, for: "a") == false)
        // Replies count against the share: no request fits beside them.
        #expect(claimWithoutWaiting(budget, 1, for: "a") == nil)
        #expect(budget.addReply(1, for: "a") == true)
        budget.releaseReplies(8 * Self.mib + 1, of: "a")
        #expect(budget.inUse == 0)
    }

    @Test func aWaitingClaimGoesOnWhenRoomIsReleased() async throws {
        let budget = BufferBudget(total: 64 * Self.mib, perOwner: 4 * Self.mib, floor: 0)
        let held = try #require(claimWithoutWaiting(budget, 4 * Self.mib, for: "a"))
        // The waiting claim blocks its thread: one of its own, not the test pool's.
        let claimed = Gate()
        // Kept: a claim is given back when it is freed.
        let waited = Mutex<BufferClaim?>(nil)
        Thread {
            let claim = budget.claimRequest(1 * Self.mib, for: "a", stop: { false })
            waited.withLock { $0 = claim }
            if claim != nil { claimed.open() }
        }.start()
        held.release()
        #expect(try await claimed.wait())
        #expect(budget.inUse(by: "a") == 1 * Self.mib)
        waited.withLock { $0 = nil }
        #expect(budget.inUse(by: "a") == 0, "a claim freed without release kept its bytes")
    }
}
