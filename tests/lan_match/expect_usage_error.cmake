# SPDX-License-Identifier: MIT
# Runs shoal-lan-match with bad arguments and expects exit code 2 and EXPECTED in its message:
#   cmake -DMATCH=exe -DARGS="a;b" -DEXPECTED=text -P expect_usage_error.cmake
execute_process(COMMAND ${MATCH} ${ARGS} RESULT_VARIABLE code ERROR_VARIABLE message OUTPUT_VARIABLE output
  TIMEOUT 20)
string(FIND "${message}" "${EXPECTED}" found)
if(NOT code EQUAL 2 OR found EQUAL -1)
  message(FATAL_ERROR "shoal-lan-match ${ARGS}: exit '${code}' (expected 2), message '${message}' "
                      "(expected it to contain '${EXPECTED}'), stdout '${output}'")
endif()
message(STATUS "exit 2: ${message}")
