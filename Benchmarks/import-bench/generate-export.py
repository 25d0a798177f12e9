#!/usr/bin/env python3
# Usage: generate-export.py [RECORDS] [OUT]  (defaults: 134000, export.xml)
# Generates an Apple Health export like the benchmark file of Benchmarks/README.md's import sections:
# 134,000 records, 33,500 each of four types, three sources interleaved, a device and one
# HKWasUserEntered entry each.
import sys, datetime, random
n = int(sys.argv[1]) if len(sys.argv) > 1 else 134000
out = open(sys.argv[2] if len(sys.argv) > 2 else "export.xml", "w")
types = [("HKQuantityTypeIdentifierStepCount", "count", lambda r: str(r.randint(1, 400))),
         ("HKQuantityTypeIdentifierHeartRate", "count/min", lambda r: str(r.randint(50, 160))),
         ("HKQuantityTypeIdentifierActiveEnergyBurned", "kcal", lambda r: "%.3f" % r.uniform(0.1, 30)),
         ("HKQuantityTypeIdentifierDistanceWalkingRunning", "km", lambda r: "%.5f" % r.uniform(0.001, 0.5))]
sources = [("Alice’s Apple Watch", "10.1", "&lt;&lt;HKDevice: 0x283a4c0f0&gt;, name:Apple Watch, manufacturer:Apple Inc., model:Watch, hardware:Watch6,1, software:10.1&gt;"),
           ("Alice’s iPhone", "17.1", "&lt;&lt;HKDevice: 0x283a4c5a0&gt;, name:iPhone, manufacturer:Apple Inc., model:iPhone, hardware:iPhone14,2, software:17.1&gt;"),
           ("Health Mate", "6.2.1", "&lt;&lt;HKDevice: 0x283a4d1e0&gt;, name:Withings Scale, manufacturer:Withings, model:WBS06, hardware:2, software:1021&gt;")]
r = random.Random(16)
out.write('<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE HealthData [\n<!ELEMENT HealthData (ExportDate,Me,(Record|Correlation|Workout|ActivitySummary)*)>\n]>\n')
out.write('<HealthData locale="en_GB">\n <ExportDate value="2024-01-15 07:27:26 +0100"/>\n')
out.write(' <Me HKCharacteristicTypeIdentifierDateOfBirth="1980-07-31" HKCharacteristicTypeIdentifierBiologicalSex="HKBiologicalSexFemale" HKCharacteristicTypeIdentifierBloodType="HKBloodTypeNotSet" HKCharacteristicTypeIdentifierFitzpatrickSkinType="HKFitzpatrickSkinTypeNotSet"/>\n')
t0 = datetime.datetime(2023, 1, 1, 8, 0, 0)
fmt = "%Y-%m-%d %H:%M:%S +0100"
for i in range(n):
    ty, unit, val = types[i % 4]
    src, ver, dev = sources[(i // 4) % 3]
    start = t0 + datetime.timedelta(seconds=60 * (i // 12) + 5 * (i % 12))
    end = start + datetime.timedelta(seconds=r.randint(1, 50))
    created = end + datetime.timedelta(seconds=30)
    out.write(' <Record type="%s" sourceName="%s" sourceVersion="%s" device="%s" unit="%s" creationDate="%s" startDate="%s" endDate="%s" value="%s">\n  <MetadataEntry key="HKWasUserEntered" value="0"/>\n </Record>\n'
              % (ty, src, ver, dev, unit, created.strftime(fmt), start.strftime(fmt), end.strftime(fmt), val(r)))
out.write('</HealthData>\n')
