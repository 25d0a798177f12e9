import COpenHealthProto
import Foundation
import HealthIPC
import HealthModel
import HealthWire
import Testing
import TestSupport

/// Every number an app can send, swept from the wire's own descriptors instead of field by
/// field (the per-field sweeps — `JunkValueEndToEndTests`, `RouteJunkEndToEndTests` — each
/// missed a field added after them: route altitude, accuracies and speed had no bound).
///
/// `WireNumberFields` enumerates every double, float, integer and enum field reachable from
/// the request of every method the app socket serves; each must have a rule in
/// `WireNumberRules` (the first test fails naming any that has none). The second takes valid
/// requests of every kind a test can build (`WireNumberBases`), and through a real healthd
/// sends each numeric field present in them over NaN, ±inf, −0, ±1e308, the largest finite
/// double, the smallest subnormal, −1 and 0 (integers: both ends of the type, −1, 0), one field
/// at a time with everything else valid. Each call is refused with a typed error
/// (errorInvalidArgument when the rule says the value is out of range) or answered; afterwards
/// every number read back from the store is finite and inside its rule, and healthd still
/// answers. About 450 calls against one healthd: about 9 seconds.
@Suite(.timeLimit(.minutes(10)), .serialized) struct WireNumberJunkEndToEndTests {
    @Test func everyNumberAnAppCanSendHasARule() {
        let fields = Set(WireNumberFields.all.map(\.key))
        let rules = Set(WireNumberRules.all.keys)
        #expect(fields.subtracting(rules).isEmpty,
                "numbers an app can send with no rule in WireNumberRules: \(fields.subtracting(rules).sorted())")
        #expect(rules.subtracting(fields).isEmpty, "rules for fields the wire no longer has: \(rules.subtracting(fields).sorted())")
        // The enumeration starts from the services' descriptors: they must be the app socket's methods.
        let paths = Set(WireNumberFields.appMethods.map(\.path))
        #expect(paths == Set(HealthStoreMethod.allCases.map(\.rawValue)),
                "service descriptors and HealthStoreMethod differ: \(paths.symmetricDifference(HealthStoreMethod.allCases.map(\.rawValue)))")
    }

    @Test func everyNumberIsRefusedWithATypedErrorOrStoredFiniteAndInRange() async throws {
        let broker = try BrokerProcess()
        let app = try await RawApp.install("org.test.wire-numbers", on: broker,
                                           grants: WireNumberBases.types.map { ("share", $0) } + WireNumberBases.readTypes.map { ("read", $0) })
        defer { app.close() }
        let bases = try await WireNumberBases.all(app)
        var swept = Set<String>()
        var failures: [String] = []
        for base in bases {
            guard let input = WireNumberFields.appMethods.first(where: { $0.path == base.method.rawValue })?.input else {
                failures.append("\(base.name): no descriptor")
                continue
            }
            for site in WireNumberMutation.sites(in: base.bytes, of: input) {
                guard let rule = WireNumberRules.all[site.field.key] else { continue }  // the first test names it
                swept.insert(site.field.key)
                for value in site.field.kind.extremes {
                    guard let bytes = WireNumberMutation.replacing(site, with: value, in: base.bytes, of: input) else {
                        failures.append("\(base.name) \(site): did not repack")
                        continue
                    }
                    let status = await Self.outcome(app, base, bytes)
                    let mustRefuse = rule.refuses(value.double)
                    let what = "\(base.name): \(site.field) = \(value)"
                    if let status {
                        if status.healthKitCode == nil || status.code == .internal || status.code == .unknown {
                            failures.append("\(what): refused without a typed error: \(status)")
                        } else if mustRefuse, status.healthKitCode != .errorInvalidArgument {
                            failures.append("\(what): refused as \(status), not errorInvalidArgument")
                        }
                    } else if mustRefuse {
                        failures.append("\(what): accepted, outside its rule (\(rule.rule))")
                    }
                }
            }
        }
        for failure in failures { Issue.record(Comment(rawValue: failure)) }

        // What was stored: every number finite and inside its rule.
        let output = try #require(WireNumberFields.appMethods.first { $0.path == HealthStoreMethod.querySamples.rawValue }?.output)
        var readBack = 0
        for type in WireNumberBases.readTypes {
            for try await batch in app.client.serverStream(HealthStoreMethod.querySamples.rawValue,
                                                            SampleQuerySpec(typeIdentifier: type).wireBytes()) {
                for (field, value) in WireNumberMutation.floatingValues(in: batch, of: output) {
                    readBack += 1
                    #expect(value.isFinite, "\(type): \(field) read back as \(value)")
                    if let rule = WireNumberRules.all[field.key], rule.stored {
                        #expect(!rule.refuses(value), "\(type): \(field) read back as \(value), outside its rule (\(rule.rule))")
                    }
                }
            }
        }
        #expect(readBack > 0)
        // Every field the bases carry was swept; the rest are named so the gap stays visible.
        let unswept = Set(WireNumberRules.all.keys).subtracting(swept)
        #expect(unswept == WireNumberBases.notYetBuilt, "swept a field listed as not built, or missed one: \(unswept.symmetricDifference(WireNumberBases.notYetBuilt).sorted())")
        // healthd survived every case.
        #expect(try await app.save([JunkRecords.stepsSample()]).count == 1)
        _ = broker
    }

    static func outcome(_ app: RawApp, _ base: WireNumberBases.Base, _ bytes: [UInt8]) async -> RPCStatus? {
        do {
            if base.stream {
                for try await _ in app.client.serverStream(base.method.rawValue, bytes) {}
            } else {
                _ = try await app.client.unary(base.method.rawValue, bytes)
            }
            return nil
        } catch let status as RPCStatus {
            return status
        } catch {
            return RPCStatus(.unknown, "\(error)")
        }
    }
}
