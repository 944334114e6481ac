// SPDX-License-Identifier: MIT
// Counts the world queries a move makes: every cpSpaceBBQuery call of a target linked with
// -Wl,--wrap=cpSpaceBBQuery (and query_count.c) goes through query_count.c first. Past the budget a query is counted
// but not made, so a move that would query without bound still ends quickly (tests/test_controller_reliability.c).
#pragma once

/// Starts counting from zero; queries past budget are not made (-1: no budget).
void query_count_reset( long budget );

/// Queries since the last reset, made or not.
long query_count( void );
