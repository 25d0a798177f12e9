import COpenHealthProto
import HealthModel

/// SortDescriptor's key: the one mapping between `SampleSort.Key` and the wire's SortKey, used
/// by SampleQueryRequest in both directions.
extension SampleSort {
    init(wire: Openhealth__V1__SortDescriptor) throws(WireDecodeError) {
        let key: Key = switch wire.key {
        case OPENHEALTH__V1__SORT_KEY__SORT_KEY_START_DATE: .startDate
        case OPENHEALTH__V1__SORT_KEY__SORT_KEY_END_DATE: .endDate
        case OPENHEALTH__V1__SORT_KEY__SORT_KEY_WORKOUT_DURATION: .workout(.duration)
        case OPENHEALTH__V1__SORT_KEY__SORT_KEY_WORKOUT_TOTAL_DISTANCE: .workout(.distance)
        case OPENHEALTH__V1__SORT_KEY__SORT_KEY_WORKOUT_TOTAL_ENERGY_BURNED: .workout(.energyBurned)
        case OPENHEALTH__V1__SORT_KEY__SORT_KEY_WORKOUT_TOTAL_SWIMMING_STROKE_COUNT: .workout(.swimmingStrokeCount)
        case OPENHEALTH__V1__SORT_KEY__SORT_KEY_WORKOUT_TOTAL_FLIGHTS_CLIMBED: .workout(.flightsClimbed)
        default: throw WireDecodeError.invalidField("unknown sort key")
        }
        self.init(key, ascending: wire.ascending != 0)
    }

    var wireKey: Openhealth__V1__SortKey {
        switch key {
        case .startDate: OPENHEALTH__V1__SORT_KEY__SORT_KEY_START_DATE
        case .endDate: OPENHEALTH__V1__SORT_KEY__SORT_KEY_END_DATE
        case .workout(.duration): OPENHEALTH__V1__SORT_KEY__SORT_KEY_WORKOUT_DURATION
        case .workout(.distance): OPENHEALTH__V1__SORT_KEY__SORT_KEY_WORKOUT_TOTAL_DISTANCE
        case .workout(.energyBurned): OPENHEALTH__V1__SORT_KEY__SORT_KEY_WORKOUT_TOTAL_ENERGY_BURNED
        case .workout(.swimmingStrokeCount): OPENHEALTH__V1__SORT_KEY__SORT_KEY_WORKOUT_TOTAL_SWIMMING_STROKE_COUNT
        case .workout(.flightsClimbed): OPENHEALTH__V1__SORT_KEY__SORT_KEY_WORKOUT_TOTAL_FLIGHTS_CLIMBED
        }
    }
}
