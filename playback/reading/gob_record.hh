// PerfMonger's Go structs (compat §3) mapped onto RawSample, matching
// fields by name: type names and field numbers differ between PerfMonger
// versions, field names do not. Unknown fields are skipped.
#pragma once

#include <cstdint>
#include <string_view>

#include "playback/reading/gob_types.hh"
#include "playback/reading/raw_sample.hh"

namespace pm::gob {

// A time.Time GobEncoder blob (version 1: 15 bytes, version 2: 16) as Unix
// nanoseconds; `offset` (of the value) locates errors.
int64_t DecodeTime(std::string_view blob, uint64_t offset);
// Reads a time.Time field value of type `id`.
int64_t ReadTime(const TypeRegistry& types, WireReader& r, TypeId id);

// Reads a StatRecord struct value of type `id` into `out`, whose members
// the caller has cleared: Time, Cpu, Interrupt, Proc, Disk, Net, Mem.
void DecodeStatRecord(const TypeRegistry& types, WireReader& r, TypeId id,
                      RawSample& out);

// What every PerfMonger recording lacks (MemAvailable), in `info`.
void NoteLegacyFields(RecordingInfo& info);

// The cores of a decoded record.
int NumCore(const RawSample& s);

}  // namespace pm::gob
