#include "tools/cli/host_launch.hpp"

#include <charconv>
#include <limits>

#include "sim/support/errors.hpp"
#include "sim/support/message_text.hpp"
#include "tools/cli/options.hpp"

namespace ir = warpdiv::sim::ir;

namespace warpdiv::cli {
namespace {

constexpr const char* kAxes[] = {"x", "y", "z"};

std::string shown(const frontend::HostValue& v) { return v.known ? v.value : "?"; }

std::string triple(const frontend::HostValue (&v)[3]) {
  return "(" + shown(v[0]) + ", " + shown(v[1]) + ", " + shown(v[2]) + ")";
}

/// A value the launch needs: refused with where it is written and why it cannot be computed, or
/// why the source's value is not to be taken (Clang rejects its expression, it does not fit its type).
const std::string& needed(const frontend::HostValue& v, const std::string& what, const std::string& flag) {
  if (!v.refused.empty())
    throw InvalidInput(Diag::host_value_unknown, v.where + ": " + what + " is not taken from the source: " +
                                                     v.refused + "; fix it or give " + flag);
  if (!v.known)
    throw InvalidInput(Diag::host_value_unknown,
                       v.where + ": " + what + " is not computable from the source: " +
                           (v.reason.empty() ? "the front-end gave no value" : v.reason) + "; give " + flag);
  return v.value;
}

/// A launch extent from the source, each component within 1 .. 2^63 - 1 before CUDA's limits.
Extent3 source_extent(const frontend::HostValue (&v)[3], const std::string& name, const std::string& flag) {
  std::int64_t c[3] = {1, 1, 1};
  for (int i = 0; i < 3; ++i) {
    const std::string& text = needed(v[i], name + "'s " + kAxes[i], flag);
    c[i] = parse_integer(v[i].where + ": " + name + "'s " + kAxes[i], text, 0,
                         std::numeric_limits<std::int64_t>::max());
  }
  return Extent3{c[0], c[1], c[2]};
}

}  // namespace

std::string describe_host_launch(const ir::Kernel& kernel, const frontend::HostLaunch& launch) {
  std::string text = launch.function + "() at " + launch.location + ": grid " + triple(launch.grid) +
                     ", block " + triple(launch.block);
  if (!(launch.dynamic_shared.known && launch.dynamic_shared.value == "0"))
    text += ", dynamic shared memory " + shown(launch.dynamic_shared) + " bytes";
  std::string args;
  for (std::size_t i = 0; i < kernel.parameters.size() && i < launch.arguments.size(); ++i) {
    const ir::Parameter& p = kernel.parameters[i];
    if (!p.scalar && p.floating == 0) continue;
    args += (args.empty() ? "" : ", ") + p.name + " = " + shown(launch.arguments[i]);
  }
  return args.empty() ? text : text + "; " + args;
}

namespace {

// The launch --launch chooses (or the only one); refused, listing them, where that is not clear.
const frontend::HostLaunch& pick_launch(const ir::Kernel& kernel,
                                        const std::vector<frontend::HostLaunch>& launches,
                                        const LaunchFlags& flags, const std::string& file) {
  const std::string missing = std::string(flags.grid ? "" : "--grid X[,Y[,Z]]") +
                              (flags.grid || flags.block ? "" : " and ") +
                              (flags.block ? "" : "--block X[,Y[,Z]]");
  if (launches.empty())
    throw InvalidInput(Diag::kernel_choice, file + " launches " + kernel.name +
                                                " nowhere in its host code (no " + kernel.name +
                                                "<<<...>>>(...)): give " + missing);
  const std::string count = std::to_string(launches.size());
  if (flags.launch && (*flags.launch < 1 || *flags.launch > static_cast<std::int64_t>(launches.size())))
    throw InvalidInput(Diag::flag_value, "--launch " + std::to_string(*flags.launch) + " is outside 1 .. " +
                                             count + " (" + file + " launches " + kernel.name + " " +
                                             sim::counted(launches.size(), "time") + ")");
  // Of several, the one launch the program makes (the others never made) is the launch.
  std::size_t made = 0, first_made = 0;
  for (std::size_t i = launches.size(); i-- > 0;)
    if (launches[i].never_made.empty()) ++made, first_made = i;
  if (!flags.launch && launches.size() > 1 && made == 1) return launches[first_made];
  if (!flags.launch && launches.size() > 1) {
    std::string list;
    for (std::size_t i = 0; i < launches.size(); ++i)
      list += " [" + std::to_string(i + 1) + "] " + describe_host_launch(kernel, launches[i]) +
              (launches[i].never_made.empty() ? "" : " (never made: " + launches[i].never_made + ")");
    throw InvalidInput(Diag::kernel_choice, file + " launches " + kernel.name + " " + count +
                                                " times: choose one with --launch N (1 .. " + count +
                                                "), or give " + missing + ":" + list);
  }
  const frontend::HostLaunch& launch =
      launches[flags.launch ? static_cast<std::size_t>(*flags.launch - 1) : 0];
  if (!launch.never_made.empty())
    throw InvalidInput(Diag::kernel_choice,
                       launch.location + ": the program never makes this launch of " + kernel.name + ": " +
                           launch.never_made + "; give " +
                           (missing.empty() ? "--arg NAME=VALUE for its arguments" : missing) +
                           (launches.size() > 1 ? ", or choose another with --launch N" : ""));
  return launch;
}

// The note: the launch as it will run (the source's values with the flags' over them), what the
// command line gave, and what the host code followed.
std::string launch_note(const ir::Kernel& kernel, const std::vector<frontend::HostLaunch>& launches,
                        const LaunchFlags& flags, const frontend::HostLaunch& launch,
                        const ChosenLaunch& chosen, const std::vector<std::string>& given) {
  const std::string count = std::to_string(launches.size());
  frontend::HostLaunch shown = launch;
  const auto set = [](frontend::HostValue(&to)[3], const Extent3& e) {
    const std::int64_t c[3] = {e.x, e.y, e.z};
    for (int i = 0; i < 3; ++i) to[i] = frontend::HostValue{true, std::to_string(c[i]), to[i].where, "", ""};
  };
  set(shown.grid, chosen.grid);
  set(shown.block, chosen.block);
  shown.dynamic_shared = frontend::HostValue{true, std::to_string(chosen.dynamic_shared), "", "", ""};
  for (std::size_t i = 0; i < kernel.parameters.size() && i < shown.arguments.size(); ++i)
    if (const auto v = chosen.values.find(kernel.parameters[i].name); v != chosen.values.end())
      shown.arguments[i] = frontend::HostValue{true, v->second.text(), "", "", ""};
  std::string note =
      (launches.size() > 1 ? "launch " + std::to_string(&launch - launches.data() + 1) + " of " + count +
                                 (flags.launch ? "" : " (the only one the program makes)")
                           : "launch") +
      " from " + describe_host_launch(kernel, shown);
  if (!given.empty())
    note += std::string(" (from ") + (flags.from_configuration ? "the configuration" : "the command line") +
            ": " + sim::listed(given) + ")";
  // (Joined as they are: each names places in the file, which listed() would cut.)
  const auto joined = [](const std::vector<std::string>& items) {
    std::string text;
    for (const std::string& item : items) text += (text.empty() ? "" : ", ") + item;
    return text;
  };
  if (!launch.followed.empty()) note += "; the host code followed with " + joined(launch.followed);
  if (!launch.unfollowed.empty())
    note += "; given values the host code does not take (the rest of the launch is the source's): " +
            joined(launch.unfollowed);
  return note;
}

}  // namespace

ChosenLaunch choose_host_launch(const ir::Kernel& kernel, const std::vector<frontend::HostLaunch>& launches,
                                const LaunchFlags& flags, const std::string& file) {
  const frontend::HostLaunch& launch = pick_launch(kernel, launches, flags, file);
  ChosenLaunch chosen;
  chosen.values = flags.values;
  std::vector<std::string> given;
  // The scalar arguments first: --grid and --block may use their names.
  for (std::size_t i = 0; i < kernel.parameters.size() && i < launch.arguments.size(); ++i) {
    const ir::Parameter& p = kernel.parameters[i];
    if (chosen.values.count(p.name) != 0) {
      given.push_back((flags.from_configuration ? "args." : "--arg ") + p.name);
      continue;
    }
    const frontend::HostValue& v = launch.arguments[i];
    if (p.scalar) {
      needed(v, "the argument " + p.name, "--arg " + p.name + "=VALUE");
      chosen.values[p.name] = parse_arg_values({p.name + "=" + v.value}).at(p.name);
    } else if (p.floating != 0 && v.known) {
      chosen.values[p.name] = parse_arg_values({p.name + "=" + v.value}).at(p.name);
    }
  }
  // --grid / --block as given (expressions of the values), else the source's; CUDA's limits either way.
  const auto extent = [&](const std::optional<std::string>& text, const frontend::HostValue(&v)[3],
                          const std::string& name, void (*check)(const std::string&, const Extent3&)) {
    const std::string flag = "--" + name;
    if (text) given.push_back(flags.from_configuration ? name : flag);
    const Extent3 e = text ? parse_extent(flag, *text, chosen.values) : source_extent(v, name, flag);
    check(text ? flag : v[0].where + ": the " + name, e);
    return e;
  };
  chosen.grid = extent(flags.grid, launch.grid, "grid", check_grid);
  chosen.block = extent(flags.block, launch.block, "block", check_block);
  if (flags.dynamic_shared) {
    chosen.dynamic_shared = *flags.dynamic_shared;
    given.push_back(flags.from_configuration ? "dynamic_smem" : "--dynamic-smem");
  } else {
    const frontend::HostValue& v = launch.dynamic_shared;
    chosen.dynamic_shared =
        parse_integer(v.where + ": the dynamic shared memory",
                      needed(v, "the dynamic shared memory", "--dynamic-smem"), 0, kMaxDynamicShared);
  }
  chosen.launch_text = flags.grid.value_or("") + " " + flags.block.value_or("");
  chosen.note = launch_note(kernel, launches, flags, launch, chosen, given);
  return chosen;
}

std::vector<std::string> host_size(const std::optional<std::string>& text, const std::string& flag,
                                   const ArgValues& values) {
  if (!text) return {};
  try {
    const Extent3 e = parse_extent(flag, *text, values);
    return {std::to_string(e.x), std::to_string(e.y), std::to_string(e.z)};
  } catch (const InvalidInput&) {
    return {"?"};
  }
}

std::map<std::string, std::string> host_arguments(const ArgValues& values) {
  std::map<std::string, std::string> out;
  for (const auto& [name, value] : values)
    if (value.integer()) out[name] = value.text();
  return out;
}

// "FILE:LINE:COL" as a place: the last two fields (the file may hold colons) decimal numbers from
// 1 to 2^32 - 1; nothing otherwise.
std::optional<SourceLocation> source_place(const std::string& where) {
  const std::size_t column = where.rfind(':');
  const std::size_t line = column == std::string::npos || column == 0 ? column : where.rfind(':', column - 1);
  if (line == std::string::npos || line == 0) return std::nullopt;
  const auto number = [&](std::size_t from, std::size_t to) {
    std::uint32_t n = 0;
    const auto [end, error] = std::from_chars(where.data() + from, where.data() + to, n);
    return error == std::errc() && end == where.data() + to ? n : 0;
  };
  SourceLocation at{where.substr(0, line), number(line + 1, column), number(column + 1, where.size())};
  if (at.line == 0 || at.column == 0) return std::nullopt;
  return at;
}

// A refusal of the launch read from the host code whose message starts with a place of that launch
// (its own or one of its values': "f.cu:5:19: the argument n ..."), placed there with that prefix
// left out of its message: the finding and its SARIF region sit where the message points.
Diagnostic at_launch_place(const Diagnostic& d, const std::vector<frontend::HostLaunch>& launches) {
  if (d.location().known()) return d;
  for (const frontend::HostLaunch& launch : launches) {
    std::vector<const std::string*> places = {&launch.location, &launch.dynamic_shared.where};
    for (int i = 0; i < 3; ++i) places.insert(places.end(), {&launch.grid[i].where, &launch.block[i].where});
    for (const frontend::HostValue& v : launch.arguments) places.push_back(&v.where);
    for (const std::string* where : places) {
      const std::string prefix = *where + ": ";
      if (d.message().compare(0, prefix.size(), prefix) != 0) continue;
      if (const std::optional<SourceLocation> at = source_place(*where))
        return Diagnostic(d.diag(), *at, d.message().substr(prefix.size()));
    }
  }
  return d;
}

}  // namespace warpdiv::cli
