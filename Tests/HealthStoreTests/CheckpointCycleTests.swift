import Testing

@testable import HealthStore

/// The checkpoint policy (`CheckpointCycle`, issue 17 session 20), step by step: a busy writer
/// gets one background pass and one small finish of its own per cycle, instead of a pass asked
/// for by every commit past the threshold while the writer stays ahead of them all.
@Suite(.timeLimit(.minutes(10))) struct CheckpointCycleTests {
    static let policy = WALCheckpointing(backgroundFrames: 1_000, inlineFrames: 16_000)

    /// Commits of 8 frames: the first past the threshold asks for a pass; those during the pass
    /// ask for nothing; the first after a pass that copied all it found, 16 frames behind, copies
    /// them itself; after that the WAL restarts, and the next cycle begins alike.
    @Test func aBusyWritersCycleIsOnePassAndOneFinish() {
        var cycle = CheckpointCycle(policy: Self.policy)
        var steps: [CheckpointCycle.Step] = []
        for frames in stride(from: Int32(8), through: 1_000, by: 8) { steps.append(cycle.committed(frames: frames, stopping: false)) }
        #expect(steps.dropLast().allSatisfy { $0 == .none })
        #expect(steps.last == .request)
        cycle.passBegan()
        #expect(cycle.committed(frames: 1_008, stopping: false) == .none)
        #expect(cycle.committed(frames: 1_016, stopping: false) == .none)
        cycle.passEnded(copiedAll: 1_000)
        #expect(cycle.committed(frames: 1_024, stopping: false) == .finish)
        // The next transaction restarted the WAL: its commit holds only its own frames.
        #expect(cycle.committed(frames: 8, stopping: false) == .none)
        for frames in stride(from: Int32(16), to: 1_000, by: 8) { _ = cycle.committed(frames: frames, stopping: false) }
        #expect(cycle.committed(frames: 1_000, stopping: false) == .request)
    }

    /// A finish is used once: should the WAL not restart after it (a reader's snapshot), the
    /// following commits ask for passes again instead of each checkpointing on its save.
    @Test func aFinishIsUsedOnce() {
        var cycle = CheckpointCycle(policy: Self.policy)
        #expect(cycle.committed(frames: 1_000, stopping: false) == .request)
        cycle.passBegan()
        cycle.passEnded(copiedAll: 1_000)
        #expect(cycle.committed(frames: 1_008, stopping: false) == .finish)
        #expect(cycle.committed(frames: 1_016, stopping: false) == .request)
    }

    /// A writer that outran the pass by more than a quarter of the threshold gets another pass,
    /// not a long checkpoint on its save; so does one after a pass a reader stopped short.
    @Test func aLargeBacklogOrAPartialPassAsksForAnotherPass() {
        var cycle = CheckpointCycle(policy: Self.policy)
        _ = cycle.committed(frames: 1_000, stopping: false)
        cycle.passBegan()
        _ = cycle.committed(frames: 1_300, stopping: false)
        cycle.passEnded(copiedAll: 1_000)
        #expect(cycle.committed(frames: 1_308, stopping: false) == .request)
        cycle.passBegan()
        cycle.passEnded(copiedAll: nil)
        #expect(cycle.committed(frames: 1_316, stopping: false) == .request)
    }

    /// A pass's count from before a restart is another generation's: it finishes nothing.
    @Test func aPassCountedBeforeARestartFinishesNothing() {
        var cycle = CheckpointCycle(policy: WALCheckpointing(backgroundFrames: 100, inlineFrames: 16_000))
        _ = cycle.committed(frames: 120, stopping: false)
        cycle.passBegan()
        _ = cycle.committed(frames: 8, stopping: false)  // restarted while the pass ran
        cycle.passEnded(copiedAll: 120)
        for frames in stride(from: Int32(16), to: 100, by: 8) { _ = cycle.committed(frames: frames, stopping: false) }
        #expect(cycle.committed(frames: 104, stopping: false) == .request)
    }

    /// The bound and a stopped checkpointer still checkpoint on the writer, pass or no pass.
    @Test func theBoundStillCheckpointsOnTheWriter() {
        var cycle = CheckpointCycle(policy: Self.policy)
        cycle.passBegan()
        #expect(cycle.committed(frames: 16_000, stopping: false) == .inline)
        #expect(cycle.committed(frames: 1_000, stopping: true) == .inline)
    }
}
