import COpenHealthProto
public import HealthModel

// The activity payloads (proto/openhealth/v1/activity.proto): summary queries for apps and the
// manager, the goal schedule and goal changes for the manager.

/// ActivitySummaryQueryRequest.
extension ActivitySummaryQuerySpec: WireMessage {
    public init(wire bytes: [UInt8]) throws {
        self = try ProtobufCodec.withDecoded(Openhealth__V1__ActivitySummaryQueryRequest.self, from: bytes) { wire in
            ActivitySummaryQuerySpec(firstDay: try wire.first_day.map { try ActivityWire.readDay($0.pointee) },
                                     lastDay: try wire.last_day.map { try ActivityWire.readDay($0.pointee) },
                                     timeZoneIdentifier: WireRead.string(wire.time_zone))
        }
    }

    public func wireBytes() -> [UInt8] {
        let arena = WireArena()
        var wire = Openhealth__V1__ActivitySummaryQueryRequest.initialized()
        wire.first_day = firstDay.map { ActivityWire.buildDay($0, in: arena) }
        wire.last_day = lastDay.map { ActivityWire.buildDay($0, in: arena) }
        wire.time_zone = arena.string(timeZoneIdentifier)
        return ProtobufCodec.encode(wire)
    }
}

/// ActivitySummaryBatch: consecutive days with data.
public struct ActivitySummaryBatch: WireMessage, Equatable {
    public var summaries: [ActivitySummaryRecord]
    /// The last message of one delivery of a long-running query (`WatchActivitySummaries`).
    public var endOfDelivery: Bool

    public init(_ summaries: [ActivitySummaryRecord], endOfDelivery: Bool = false) {
        self.summaries = summaries
        self.endOfDelivery = endOfDelivery
    }

    public init(wire bytes: [UInt8]) throws {
        (summaries, endOfDelivery) = try ProtobufCodec.withDecoded(Openhealth__V1__ActivitySummaryBatch.self, from: bytes) { wire in
            (try WireRead.messages(wire.summaries, count: wire.n_summaries).map(ActivityWire.readSummary), wire.end_of_delivery != 0)
        }
    }

    public func wireBytes() -> [UInt8] {
        let arena = WireArena()
        var wire = Openhealth__V1__ActivitySummaryBatch.initialized()
        let built = summaries.map { ActivityWire.buildSummary($0, in: arena) }
        wire.n_summaries = built.count
        wire.summaries = arena.messages(built)
        wire.end_of_delivery = endOfDelivery ? 1 : 0
        return ProtobufCodec.encode(wire)
    }
}

/// ActivityGoalSchedule.
extension ActivityGoalSchedule: WireMessage {
    public init(wire bytes: [UInt8]) throws {
        self = try ProtobufCodec.withDecoded(Openhealth__V1__ActivityGoalSchedule.self, from: bytes) { wire in
            ActivityGoalSchedule(try WireRead.messages(wire.changes, count: wire.n_changes).map { change in
                guard let day = change.effective_from?.pointee else {
                    throw WireDecodeError.invalidField("a goal change needs the day it applies from")
                }
                return ActivityGoalChange(effectiveFrom: try ActivityWire.readDay(day),
                                          goals: change.goals.map { ActivityWire.readGoals($0.pointee) } ?? .none)
            })
        }
    }

    public func wireBytes() -> [UInt8] {
        let arena = WireArena()
        var wire = Openhealth__V1__ActivityGoalSchedule.initialized()
        let built = changes.map { change in
            arena.message { (wire: inout Openhealth__V1__ActivityGoalChange) in
                wire.effective_from = ActivityWire.buildDay(change.effectiveFrom, in: arena)
                wire.goals = ActivityWire.buildGoals(change.goals, in: arena)
            }
        }
        wire.n_changes = built.count
        wire.changes = arena.messages(built)
        return ProtobufCodec.encode(wire)
    }
}

/// ActivityGoalUpdate: a goal left out is an absent GoalValue.
extension ActivityGoalUpdate: WireMessage {
    public init(wire bytes: [UInt8]) throws {
        self = try ProtobufCodec.withDecoded(Openhealth__V1__ActivityGoalUpdate.self, from: bytes) { wire in
            guard let day = wire.effective_from?.pointee else {
                throw WireDecodeError.invalidField("a goal change needs the day it applies from")
            }
            return ActivityGoalUpdate(effectiveFrom: try ActivityWire.readDay(day),
                                      moveKilocalories: wire.move_kcal?.pointee.value,
                                      exerciseMinutes: wire.exercise_min?.pointee.value,
                                      standHours: wire.stand_hours?.pointee.value,
                                      moveTimeMinutes: wire.move_time_min?.pointee.value)
        }
    }

    public func wireBytes() -> [UInt8] {
        let arena = WireArena()
        var wire = Openhealth__V1__ActivityGoalUpdate.initialized()
        func value(_ goal: Double?) -> UnsafeMutablePointer<Openhealth__V1__GoalValue>? {
            goal.map { goal in arena.message { (wire: inout Openhealth__V1__GoalValue) in wire.value = goal } }
        }
        wire.effective_from = ActivityWire.buildDay(effectiveFrom, in: arena)
        wire.move_kcal = value(moveKilocalories)
        wire.exercise_min = value(exerciseMinutes)
        wire.stand_hours = value(standHours)
        wire.move_time_min = value(moveTimeMinutes)
        return ProtobufCodec.encode(wire)
    }
}

/// Conversions shared by the activity messages.
enum ActivityWire {
    static func buildDay(_ day: CalendarDay, in arena: WireArena) -> UnsafeMutablePointer<Openhealth__V1__CalendarDay> {
        arena.message { (wire: inout Openhealth__V1__CalendarDay) in
            wire.year = Int32(day.year)
            wire.month = Int32(day.month)
            wire.day = Int32(day.day)
        }
    }

    static func readDay(_ wire: Openhealth__V1__CalendarDay) throws(WireDecodeError) -> CalendarDay {
        guard let day = CalendarDay(year: Int(wire.year), month: Int(wire.month), day: Int(wire.day)) else {
            throw .invalidField("activity day is not a day of the Gregorian calendar")
        }
        return day
    }

    static func buildGoals(_ goals: ActivityGoals, in arena: WireArena) -> UnsafeMutablePointer<Openhealth__V1__ActivityGoals> {
        arena.message { (wire: inout Openhealth__V1__ActivityGoals) in
            wire.move_kcal = goals.moveKilocalories
            wire.exercise_min = goals.exerciseMinutes
            wire.stand_hours = goals.standHours
            wire.move_time_min = goals.moveTimeMinutes
        }
    }

    static func readGoals(_ wire: Openhealth__V1__ActivityGoals) -> ActivityGoals {
        ActivityGoals(moveKilocalories: wire.move_kcal, exerciseMinutes: wire.exercise_min, standHours: wire.stand_hours,
                      moveTimeMinutes: wire.move_time_min)
    }

    static func buildSummary(_ summary: ActivitySummaryRecord, in arena: WireArena) -> UnsafeMutablePointer<Openhealth__V1__ActivitySummary> {
        arena.message { (wire: inout Openhealth__V1__ActivitySummary) in
            wire.day = buildDay(summary.day, in: arena)
            wire.active_energy_burned_kcal = summary.totals.activeEnergyBurned
            wire.apple_exercise_time_min = summary.totals.exerciseMinutes
            wire.apple_stand_hours = UInt32(clamping: summary.totals.standHours)
            wire.apple_move_time_min = summary.totals.moveTimeMinutes
            wire.goals = buildGoals(summary.goals, in: arena)
            wire.move_mode = Int32(summary.moveMode.rawValue)
        }
    }

    static func readSummary(_ wire: Openhealth__V1__ActivitySummary) throws(WireDecodeError) -> ActivitySummaryRecord {
        guard let day = wire.day?.pointee else { throw .invalidField("an activity summary needs its day") }
        guard let moveMode = HKActivityMoveMode(rawValue: Int(wire.move_mode)) else {
            throw .invalidField("unknown activity move mode")
        }
        return ActivitySummaryRecord(
            day: try readDay(day),
            totals: ActivityTotals(activeEnergyBurned: wire.active_energy_burned_kcal, exerciseMinutes: wire.apple_exercise_time_min,
                                   standHours: Int(wire.apple_stand_hours), moveTimeMinutes: wire.apple_move_time_min),
            goals: wire.goals.map { readGoals($0.pointee) } ?? .none,
            moveMode: moveMode)
    }
}
