import Foundation
import HealthModel
import Testing
import TestSupport

/// HealthKit code written as Apple documents it (Tests/EndToEndClient/AppleSnippets.swift,
/// compiled unchanged against the SDK), run as a sandboxed app against a real healthd, and held
/// to Apple's documented behaviour. Each test cites the page it follows.
@Suite(.serialized, .timeLimit(.minutes(10))) struct AppleSnippetTests {
    let steps = "HKQuantityTypeIdentifierStepCount"

    /// An app that saved 2 step samples, and another app that saved 1, both readable by `app`.
    func twoAppsWithSteps(_ broker: BrokerProcess, app: String) async throws {
        let other = try await broker.installClient("org.test.snippet-other")
        for (saver, start) in [(app, 1_700_000_000), (app, 1_700_000_600), (other, 1_700_001_200)] {
            try await broker.set(saver, "share", steps, allowed: true)
            let saved = try await broker.runApp(saver, ["save", steps, "100", "count", "\(start)", "\(start + 60)"])
            #expect(saved.okValue != nil, "\(saved)")
        }
        try await broker.set(app, "read", steps, allowed: true)
    }

    /// developer.apple.com/documentation/healthkit/hksource/default(): "Returns the source for
    /// the current app." Its bundle identifier is the one on the app's saved samples, so
    /// predicateForObjects(from: .default()) selects exactly them.
    @Test func theDefaultSourceIsTheAppsOwnAndSelectsItsSamples() async throws {
        let broker = try BrokerProcess()
        let app = try await broker.installClient("org.test.snippet-source")
        let source = try await broker.runApp(app, ["snippet", "default-source"])
        #expect(source.okValue?.hasPrefix("\(app) ") == true, "\(source)")

        try await twoAppsWithSteps(broker, app: app)
        let own = try await broker.runApp(app, ["snippet", "own-steps"])
        #expect(own.okValue == "2 2", "\(own)")
    }

    /// developer.apple.com/forums/thread/694311 and HKHealthStore: a share set with a type apps may
    /// not write fails with "Authorization to share the following types is disallowed: …" and
    /// nothing is asked.
    @Test func aShareRequestForAnAppleComputedTypeIsRefusedWithHealthKitsMessage() async throws {
        let broker = try BrokerProcess()
        let app = try await broker.installClient("org.test.snippet-share")
        let result = try await broker.runApp(app, ["snippet", "share-exercise-time"], timeout: 20)
        #expect(result.errorCode == HKError.Code.errorInvalidArgument.rawValue, "\(result)")
        #expect(result.stdout.contains("Authorization to share the following types is disallowed: "
                                       + "HKQuantityTypeIdentifierAppleExerciseTime"), "\(result)")
        #expect(try await broker.healthctl(["requests"]).stdout.contains("No pending requests"))
    }

    /// HKHealthStore.delete(_:withCompletion:) with no objects: HealthKit fails with
    /// errorInvalidArgument (issue 15.6).
    @Test func deletingAnEmptyArrayFailsWithInvalidArgument() async throws {
        let broker = try BrokerProcess()
        let app = try await broker.installClient("org.test.snippet-delete")
        let result = try await broker.runApp(app, ["snippet", "delete-nothing"])
        #expect(result.errorCode == HKError.Code.errorInvalidArgument.rawValue, "\(result)")
    }

    /// developer.apple.com/documentation/objectivec/nsobject/isequal(_:) as HKObject overrides it:
    /// objects are equal when their UUIDs are (issue 15.3), so two fetches of the same samples
    /// form a set of the samples, once each.
    @Test func theSameSampleFetchedTwiceIsEqualAndCountedOnceInASet() async throws {
        let broker = try BrokerProcess()
        let app = try await broker.installClient("org.test.snippet-equal")
        try await twoAppsWithSteps(broker, app: app)
        let result = try await broker.runApp(app, ["snippet", "same-sample-twice"])
        #expect(result.okValue == "3 3 true", "\(result)")
    }

    /// HKAnchoredObjectQuery's documentation and Apple's sample code persist the new anchor with
    /// NSKeyedArchiver (HKQueryAnchor adopts NSSecureCoding); a query from the restored anchor
    /// returns only what was added since (issue 15.4).
    @Test func anArchivedAnchorResumesWhereTheLastQueryEnded() async throws {
        let broker = try BrokerProcess()
        let app = try await broker.installClient("org.test.snippet-anchor")
        try await twoAppsWithSteps(broker, app: app)
        let result = try await broker.runApp(app, ["snippet", "archive-anchor"])
        #expect(result.okValue == "3 0", "\(result)")
    }

    /// developer.apple.com/documentation/healthkit/hkobject ("Conforms To NSSecureCoding"), as
    /// HKQueryAnchor above: fetched samples, their type and unit archived with NSKeyedArchiver
    /// read back equal (a sample's equality is its UUID) with the same quantity, dates and source.
    @Test func archivedFetchedSamplesReadBackEqual() async throws {
        let broker = try BrokerProcess()
        let app = try await broker.installClient("org.test.snippet-archive-samples")
        try await twoAppsWithSteps(broker, app: app)
        let result = try await broker.runApp(app, ["snippet", "archive-samples"])
        #expect(result.okValue == "3 3 true 3 true true", "\(result)")
    }

    /// developer.apple.com/documentation/healthkit/hksourcerevision/init(source:version:producttype:operatingsystemversion:)
    /// and the HKSourceRevisionAny… constants.
    @Test func aSourceRevisionKeepsItsProductTypeAndSystemVersion() async throws {
        let broker = try BrokerProcess()
        let app = try await broker.installClient("org.test.snippet-revision")
        let result = try await broker.runApp(app, ["snippet", "source-revision"])
        #expect(result.okValue == "HKSourceRevisionAnyVersion HKSourceRevisionAnyProductType -1", "\(result)")
    }

    /// developer.apple.com/documentation/healthkit/hkhealthstore/statusforauthorizationrequest(toshare:read:):
    /// `.shouldRequest` while the user has not decided, `.unnecessary` once every type is decided.
    @Test func theRequestStatusFollowsTheUsersDecisions() async throws {
        let broker = try BrokerProcess()
        let app = try await broker.installClient("org.test.snippet-status")
        #expect(try await broker.runApp(app, ["snippet", "request-status"]).okValue == "shouldRequest")
        try await broker.set(app, "read", steps, allowed: false)
        try await broker.set(app, "share", steps, allowed: true)
        #expect(try await broker.runApp(app, ["snippet", "request-status"]).okValue == "unnecessary")
    }

    /// developer.apple.com/documentation/healthkit/hkobserverquery/init(querydescriptors:updatehandler:):
    /// one query observes every descriptor's type; an update names the type that changed.
    @Test func anObserverOverTwoDescriptorsReportsTheTypeThatChanged() async throws {
        let broker = try BrokerProcess()
        let reader = try await broker.installClient("org.test.snippet-observer")
        let writer = try await broker.installClient("org.test.snippet-writer")
        let heartRate = "HKQuantityTypeIdentifierHeartRate"
        for type in [steps, heartRate] { try await broker.set(reader, "read", type, allowed: true) }
        try await broker.set(writer, "share", heartRate, allowed: true)
        let live = try LiveApp(reader, ["snippet", "observe-descriptors"], adminSocket: broker.adminSocket)
        #expect(try await live.waitForLine("update 2"), "\(live.lines)")
        let saved = try await broker.runApp(writer, ["save", heartRate, "60", "count/min", "1700000000", "1700000000"])
        #expect(saved.okValue != nil, "\(saved)")
        let result = await live.finish()
        // Each descriptor's start-up update, in either order, then the heart-rate change.
        let types = result.lines.filter { $0.hasPrefix("types ") }
        #expect(Set(types.prefix(2)) == ["types 1 \(steps)", "types 2 \(heartRate)"]
                || Set(types.prefix(2)) == ["types 1 \(heartRate)", "types 2 \(steps)"], "\(result)")
        #expect(types.dropFirst(2).first == "types 3 \(heartRate)", "\(result)")
        #expect(result.okValue == "3", "\(result)")
    }

    /// developer.apple.com/documentation/healthkit/hkquery/predicateforobjects(from:)-6gmu6 (the
    /// Set<HKSourceRevision> form) and HKSourceRevisionAnyVersion: a revision selects its app's
    /// samples at that version, "any version" all of the app's, another version none.
    @Test func aSourceRevisionPredicateSelectsTheAppsSamplesAtThatVersion() async throws {
        let broker = try BrokerProcess()
        let app = try await broker.installClient("org.test.snippet-revisions")
        try await twoAppsWithSteps(broker, app: app)
        let result = try await broker.runApp(app, ["snippet", "revision-steps"])
        #expect(result.okValue == "2 2 0 0", "\(result)")
    }

    /// developer.apple.com/documentation/healthkit/hkquery/predicateforobjects(from:) (the
    /// Set<HKDevice> form): objects recorded by one of the devices, compared as HKDevice's
    /// equality (every property). Two samples from a watch, one from a phone, one without a device.
    @Test func aDevicePredicateSelectsTheSamplesOfEqualDevicesOnly() async throws {
        let broker = try BrokerProcess()
        let app = try await broker.installClient("org.test.snippet-devices")
        try await broker.set(app, "share", steps, allowed: true)
        try await broker.set(app, "read", steps, allowed: true)
        let watch = ["Watch", "Apple Inc.", "Watch", "Watch6,1", "", "10.0", "", ""]
        let phone = ["Phone", "Apple Inc.", "iPhone", "iPhone14,2", "", "17.0", "", ""]
        for (time, device) in [(1_700_000_000, watch), (1_700_000_600, watch), (1_700_001_200, phone)] {
            let saved = try await broker.runApp(app, ["save-from-device", steps, "10", "count", "\(time)"] + device)
            #expect(saved.okValue != nil, "\(saved)")
        }
        #expect(try await broker.runApp(app, ["save", steps, "10", "count", "1700001800", "1700001860"]).okValue != nil)
        let result = try await broker.runApp(app, ["snippet", "device-steps"])
        #expect(result.okValue == "4 2 2 0", "\(result)")
    }

    /// developer.apple.com/documentation/healthkit/hkheartbeatseriesbuilder (addHeartbeatWithTimeInterval
    /// (sinceSeriesStartDate:precededByGap:completion:), finishSeries(completion:)) and
    /// …/hkheartbeatseriesquery/init(heartbeatseries:datahandler:): the beats come back in order with
    /// their gap flags, the handler's last call has `done`; the series is found by
    /// `HKObjectType.seriesType(forIdentifier: HKDataTypeIdentifierHeartbeatSeries)`.
    @Test func aHeartbeatSeriesBuiltWithCompletionHandlersIsReadBack() async throws {
        let broker = try BrokerProcess()
        let app = try await broker.installClient("org.test.snippet-heartbeats")
        try await broker.set(app, "share", HKDataTypeIdentifierHeartbeatSeries, allowed: true)
        try await broker.set(app, "read", HKDataTypeIdentifierHeartbeatSeries, allowed: true)
        let result = try await broker.runApp(app, ["snippet", "heartbeat-builder"])
        #expect(result.okValue == "3 0.75:false,1.5:false,2.75:true 2.75", "\(result)")
    }

    /// developer.apple.com/documentation/healthkit/hkelectrocardiogramquery: Apple's own snippet —
    /// a sample query for `electrocardiogramType()`, then `HKElectrocardiogramQuery(ecgSample)`
    /// switching over `.measurement`, `.done`, `.error` — over an ECG the user imported.
    @Test func applesElectrocardiogramSnippetReadsAnImportedECG() async throws {
        let broker = try BrokerProcess()
        let imported = try await broker.healthctl(["import", try SeriesEndToEndTests.writeExport(in: broker), "--characteristics", "no"])
        #expect(imported.status == 0, "\(imported)")
        let app = try await broker.installClient("org.test.snippet-ecg")
        try await broker.set(app, "read", HKElectrocardiogramTypeIdentifier, allowed: true)
        // The snippet also saves a symptom during the recording and asks for the ECG's associated
        // symptoms (HKQuery.predicateForObjectsAssociated(electrocardiogram:)): none, as nothing but
        // Apple's ECG app associates them; the same sample is found by the recording's time.
        let chestPain = "HKCategoryTypeIdentifierChestTightnessOrPain"
        try await broker.set(app, "share", chestPain, allowed: true)
        try await broker.set(app, "read", chestPain, allowed: true)
        let result = try await broker.runApp(app, ["snippet", "electrocardiogram"])
        #expect(result.okValue == "1 sinusRhythm 1536 1536 15360.0 associated 0 during 1", "\(result)")
    }

    /// developer.apple.com/documentation/healthkit/hkcumulativequantitysample and
    /// …/hkdiscretequantitysample: samples of a cumulative type come back as
    /// HKCumulativeQuantitySample (`sumQuantity`), of a discrete type as HKDiscreteQuantitySample
    /// (`mostRecentQuantity`, minimum = maximum for one value).
    @Test func fetchedQuantitySamplesAreCumulativeOrDiscreteByTheirType() async throws {
        let broker = try BrokerProcess()
        let app = try await broker.installClient("org.test.snippet-kinds")
        let heartRate = "HKQuantityTypeIdentifierHeartRate"
        for type in [steps, heartRate] {
            try await broker.set(app, "share", type, allowed: true)
            try await broker.set(app, "read", type, allowed: true)
        }
        #expect(try await broker.runApp(app, ["save", steps, "250", "count", "1700000000", "1700000600"]).okValue != nil)
        #expect(try await broker.runApp(app, ["save", heartRate, "72", "count/min", "1700000000", "1700000000"]).okValue != nil)
        let result = try await broker.runApp(app, ["snippet", "quantity-sample-kinds"])
        #expect(result.okValue == "cumulative:250.0:1 discrete:72.0:true", "\(result)")
    }

    /// developer.apple.com/documentation/healthkit/hkquantityseriessamplebuilder/insert(_:for:)
    /// (a quantity at the start of an earlier one replaces it), …/hkquantitysample/count, …/quantity
    /// ("the sum … for cumulative"), …/hkquantityseriessamplequery (includeSample; every quantity
    /// with its interval, `done` on the last) and …/hkstatisticscollectionquery: statistics count a
    /// series by its quantities, so an hourly sum splits it where its quantities lie (35 and 30),
    /// not by prorating its 65 steps over its span.
    @Test func aStepSeriesIsReadQuantityByQuantityAndSplitByStatistics() async throws {
        let broker = try BrokerProcess()
        let app = try await broker.installClient("org.test.snippet-step-series")
        try await broker.set(app, "share", steps, allowed: true)
        try await broker.set(app, "read", steps, allowed: true)
        let result = try await broker.runApp(app, ["snippet", "quantity-series-steps"])
        #expect(result.okValue == "3 65.0 10.0@0.0+60.0,25.0@60.0+60.0,30.0@3600.0+60.0! 35.0,30.0", "\(result)")
    }

    /// developer.apple.com/documentation/healthkit/hkdiscretequantitysample (minimumQuantity,
    /// maximumQuantity, averageQuantity, mostRecentQuantity, mostRecentQuantityDateInterval),
    /// …/hkquantitysample/quantity ("average for discrete"), …/hkquantityseriessamplebuilder/
    /// finishseries(metadata:enddate:completion:) (the given end date), …/insert(_:at:) (a
    /// zero-length interval), …/hkquantityseriessamplequerydescriptor (results without their
    /// sample unless `.includeSample`) and …/hkquery/predicateforquantitysamples(with:quantity:),
    /// which compares the sample's quantity — a series' average.
    @Test func aHeartRateSeriesIsADiscreteSampleSummarizingItsQuantities() async throws {
        let broker = try BrokerProcess()
        let app = try await broker.installClient("org.test.snippet-bpm-series")
        let heartRate = "HKQuantityTypeIdentifierHeartRate"
        try await broker.set(app, "share", heartRate, allowed: true)
        try await broker.set(app, "read", heartRate, allowed: true)
        let result = try await broker.runApp(app, ["snippet", "quantity-series-heart-rate"])
        #expect(result.okValue == "3 75.0 60.0 90.0 75.0 75.0@60.0+0.0 120.0 60.0@0.0,90.0@30.0,75.0@60.0 1", "\(result)")
    }

    /// developer.apple.com/documentation/healthkit/hkquantityseriessamplebuilder: insert fails with
    /// errorInvalidArgument for an incompatible unit or a date before `startDate`; finishSeries
    /// fails before any quantity is inserted and for an end date before a quantity's end;
    /// overlapping quantities are refused here too (see Sources/HealthKit/README.md); discard()
    /// invalidates the builder. Nothing is saved.
    @Test func theSeriesBuilderRefusesWhatHealthKitRefuses() async throws {
        let broker = try BrokerProcess()
        let app = try await broker.installClient("org.test.snippet-series-refusals")
        try await broker.set(app, "share", steps, allowed: true)
        try await broker.set(app, "read", steps, allowed: true)
        let result = try await broker.runApp(app, ["snippet", "quantity-series-refusals"])
        let invalid = "\(HKError.Code.errorInvalidArgument.rawValue)"
        #expect(result.okValue == Array(repeating: invalid, count: 8).joined(separator: ",") + " 0", "\(result)")
    }
}
