@testable import HealthBroker
import HealthWire
import Testing

/// Every app method's answer follows a decided rule for being read again (`RereadRule`): a
/// streamed answer is read again when its reader holds it up and any object leaves the store, so a
/// streaming method added without a rule — or claiming to be one reply — fails here, before an
/// app could use its second reading to detect other apps' deletions (privacy review, session 16,
/// finding 2). The switch in `RereadRule.of` has no default, so a new `HealthStoreMethod` does not
/// build until it is decided.
@Suite(.timeLimit(.minutes(10))) struct RereadRuleTests {
    @Test(arguments: HealthStoreMethod.allCases)
    func eachAppMethodsRereadRuleMatchesHowItAnswers(_ method: HealthStoreMethod) throws {
        let handler = try #require(MethodTable.app[method.rawValue], "\(method.rawValue) is not served")
        let rule = RereadRule.of(method)
        if case .stream = handler {
            #expect(rule != .oneReply, "\(method.rawValue) streams its answer but claims to be one reply, read once")
        } else {
            #expect(rule == .oneReply, "\(method.rawValue) answers in one frame but claims a rule for reading again: \(rule)")
        }
    }
}
