// `play --format csv`: play's rates as one CSV table (RFC 4180: comma
// separated, CRLF line ends, a field quoted when it holds a comma, a quote
// or a line break, quotes doubled), for spreadsheets and pandas.
//
// One header row, then one row per play line with the same numbers in the
// same formats (%.2f; disk latency %.3f; memory in kB as integers). Column
// names are the JSON paths of play's values, in play's order:
//   time, elapsed_time,
//   cpu.all.<f>, cpu.cores.<i>.<f>       f: usr nice sys idle iowait hardirq
//                                           softirq steal guest guestnice
//   intr.core_dev_intr.<i>, intr.core_sys_intr.<i>   (with --record-intr)
//   disk.<name>.<f>, disk.total.<f>      f: riops wiops rkbyteps wkbyteps
//                                           rlatency wlatency rsize wsize qlen
//   net.<name>.<f>, net.total.<f>        f: rxkbyteps rxpktps rxerrps rxdropps
//                                           txkbyteps txpktps txerrps txdropps
//   mem.<key>                            play's 29 mem keys
// The columns are those of the first line: a device missing from a later
// line leaves its cells empty, one that appears later is left out (see
// left_out()).
#pragma once

#include <string>
#include <vector>

#include "playback/rates.hh"

namespace pm {

class CsvExport {
 public:
  // The header first (before the first row), then the row, each ending CRLF.
  void AppendRow(std::string& out, const PairRates& rates);
  bool left_out() const { return left_out_; }

 private:
  void SetColumns(const PairRates& first);
  void AppendHeader(std::string& out) const;

  bool started_ = false;
  bool has_cpu_ = false, has_intr_ = false, has_disk_ = false, has_net_ = false,
       has_mem_ = false;
  size_t cores_ = 0, intr_dev_ = 0, intr_sys_ = 0;
  std::vector<std::string> disks_, nets_;  // sorted, as play sorts them
  bool left_out_ = false;
};

// An RFC 4180 field: as is, or quoted with its quotes doubled.
void AppendCsvField(std::string& out, std::string_view field);

}  // namespace pm
