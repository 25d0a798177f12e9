@testable import HealthBroker
import HealthWire
import Testing

/// The one-agent channel between background delivery and `health-sandbox agent`.
@Suite(.timeLimit(.minutes(10))) struct LaunchChannelTests {
    func request(_ id: UInt64) -> LaunchRequest {
        LaunchRequest(requestID: id, appID: "org.test.app", executable: "/opt/app", typeIdentifiers: ["HKQuantityTypeIdentifierStepCount"])
    }

    @Test func nothingIsOfferedWithoutAnAgent() {
        let channel = LaunchChannel()
        #expect(!channel.hasAgent)
        #expect(!channel.offer(request(1)))
    }

    @Test func aSecondAgentIsRefusedUntilTheFirstDetaches() throws {
        let channel = LaunchChannel()
        let first = try channel.attach(pid: 100)
        #expect(throws: RPCStatus.self) { try channel.attach(pid: 200) }
        _ = channel.detach(first.id)
        #expect(!channel.hasAgent)
        let second = try channel.attach(pid: 200)
        #expect(channel.hasAgent)
        _ = channel.detach(second.id)
    }

    @Test func requestsWithoutAnOutcomeAreReturnedOnDetach() async throws {
        let channel = LaunchChannel()
        let agent = try channel.attach(pid: 100)
        #expect(channel.offer(request(1)))
        #expect(channel.offer(request(2)))
        var iterator = agent.requests.makeAsyncIterator()
        #expect(await iterator.next()?.requestID == 1)
        channel.confirmSent(1, by: agent.id)
        // 1 reached the agent but it never said what it did: it may have died first, so both are due again.
        #expect(channel.detach(agent.id).map(\.requestID) == [1, 2])
        #expect(channel.detach(agent.id).isEmpty, "a second detach of the same agent does nothing")
    }

    @Test func aStaleAgentsDetachLeavesTheNewOneAttached() throws {
        let channel = LaunchChannel()
        let old = try channel.attach(pid: 100)
        _ = channel.detach(old.id)
        let current = try channel.attach(pid: 200)
        _ = channel.detach(old.id)
        #expect(channel.hasAgent)
        _ = channel.detach(current.id)
    }

    @Test func onlyTheAttachedAgentReportsOutcomesOfRequestsItWasSent() async throws {
        let channel = LaunchChannel()
        let agent = try channel.attach(pid: 100)
        #expect(channel.offer(request(1)))
        var iterator = agent.requests.makeAsyncIterator()
        #expect(await iterator.next()?.requestID == 1)
        channel.confirmSent(1, by: agent.id)
        let launched = LaunchOutcome(requestID: 1, kind: .launched, appID: request(1).appID, pid: 7)
        #expect(throws: LaunchChannel.OutcomeRefusal.notTheAgent) { try channel.takeOutcome(launched, from: 101) }
        var otherApp = launched
        otherApp.appID = "org.test.other"
        #expect(throws: LaunchChannel.OutcomeRefusal.unknownRequest) { try channel.takeOutcome(otherApp, from: 100) }
        #expect(try channel.takeOutcome(launched, from: 100)?.requestID == 1)
        #expect(throws: LaunchChannel.OutcomeRefusal.unknownRequest, "one outcome per request") {
            try channel.takeOutcome(launched, from: 100)
        }
        #expect(channel.detach(agent.id).isEmpty)
    }
}
