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

    /// Session 13: a request's unpacking is charged as it grows (`claimUnpacked`): first from the
    /// room its frame's claim set aside (`requestBytesPerFrameByte` − 1 bytes a byte), then from
    /// the owner's share — without waiting, refused when the share (or the broker's total past the
    /// floor) cannot cover it — counted `unpackedChargePerByte` times, and given back with the
    /// call's claim. Before, the claim was fixed at 4× the frame whatever the request unpacked to.
    @Test func unpackingIsChargedFromTheFrameRoomThenTheShareWithoutWaiting() {
        let budget = BufferBudget(total: 64 * Self.mib, perOwner: 16 * Self.mib, floor: 0,
                                  requestBytesPerFrameByte: 4, unpackedChargePerByte: 2)
        guard let claim = claimWithoutWaiting(budget, 1 * Self.mib, for: "a") else {
            Issue.record("a 1 MiB frame did not fit a 16 MiB share")
            return
        }
        #expect(claim.bytes == 4 * Self.mib)
        // 1.5 MiB unpacked, counted twice: the 3 MiB of room, nothing from the share.
        #expect(claim.claimUnpacked(3 * Self.mib / 2))
        #expect(budget.inUse(by: "a") == 4 * Self.mib)
        // Beyond the room: from the share.
        #expect(claim.claimUnpacked(2 * Self.mib))
        #expect(claim.bytes == 8 * Self.mib && budget.inUse(by: "a") == 8 * Self.mib)
        // What the share cannot cover is refused at once (a waiting claim would hang this test),
        // having taken nothing; what still fits is granted.
        #expect(!claim.claimUnpacked(4 * Self.mib + 1))
        #expect(budget.inUse(by: "a") == 8 * Self.mib)
        #expect(claim.claimUnpacked(4 * Self.mib))
        #expect(budget.inUse(by: "a") == 16 * Self.mib)
        // Extremes: nothing costs nothing; a count that overflows when doubled is refused.
        #expect(claim.claimUnpacked(0))
        #expect(!claim.claimUnpacked(Int.max))
        #expect(claim.unpackedLimitDescription.contains("16 MiB"))
        // The call's end gives back the frame's claim and its unpacking together, once.
        claim.release()
        claim.release()
        #expect(budget.inUse == 0)
        // A call that ended unpacks nothing more on its owner's share.
        #expect(!claim.claimUnpacked(1))
        #expect(budget.inUse == 0)
    }

    /// Past the broker's total only the floor is left, for unpacking as for frames.
    @Test func unpackingPastTheTotalIsRefusedBeyondTheFloor() {
        let budget = BufferBudget(total: 8 * Self.mib, perOwner: 8 * Self.mib, floor: 1 * Self.mib,
                                  requestBytesPerFrameByte: 1, unpackedChargePerByte: 1)
        let hog = claimWithoutWaiting(budget, 8 * Self.mib, for: "hog")
        let small = claimWithoutWaiting(budget, 256 << 10, for: "victim")
        #expect(hog != nil && small != nil)
        #expect(small?.claimUnpacked(512 << 10) == true, "within the floor")
        #expect(small?.claimUnpacked(512 << 10) == false, "past the floor at the total")
        #expect(hog?.claimUnpacked(1) == false, "past the hog's share")
        withExtendedLifetime((hog, small)) {}
    }
}
