/* agent-gtk-version-macros.h
 *
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */

#pragma once

#if !defined(AGENT_GTK_INSIDE) && !defined(AGENT_GTK_COMPILATION)
# error "Only <agent-gtk.h> can be included directly."
#endif

#include <glib.h>

#include "agent-gtk-version.h"

#ifndef _AGENT_GTK_EXTERN
# define _AGENT_GTK_EXTERN extern
#endif

#define AGENT_GTK_VERSION_CUR_STABLE (G_ENCODE_VERSION (AGENT_GTK_MAJOR_VERSION, AGENT_GTK_MINOR_VERSION))

/**
 * AGENT_GTK_DEPRECATED:
 *
 * Marks a public symbol as deprecated. Define
 * `AGENT_GTK_DISABLE_DEPRECATION_WARNINGS` to silence the warnings.
 */

/**
 * AGENT_GTK_DEPRECATED_FOR:
 * @f: the symbol to use instead
 *
 * Marks a public symbol as deprecated in favour of @f.
 */

/**
 * AGENT_GTK_UNAVAILABLE:
 * @maj: the major version that introduced the symbol
 * @min: the minor version that introduced the symbol
 *
 * Marks a public symbol that is newer than `AGENT_GTK_VERSION_MAX_ALLOWED`.
 */
#ifdef AGENT_GTK_DISABLE_DEPRECATION_WARNINGS
# define AGENT_GTK_DEPRECATED _AGENT_GTK_EXTERN
# define AGENT_GTK_DEPRECATED_FOR(f) _AGENT_GTK_EXTERN
# define AGENT_GTK_UNAVAILABLE(maj,min) _AGENT_GTK_EXTERN
#else
# define AGENT_GTK_DEPRECATED G_DEPRECATED _AGENT_GTK_EXTERN
# define AGENT_GTK_DEPRECATED_FOR(f) G_DEPRECATED_FOR (f) _AGENT_GTK_EXTERN
# define AGENT_GTK_UNAVAILABLE(maj,min) G_UNAVAILABLE (maj, min) _AGENT_GTK_EXTERN
#endif

#define AGENT_GTK_VERSION_0_1 (G_ENCODE_VERSION (0, 1))

/**
 * AGENT_GTK_VERSION_MIN_REQUIRED:
 *
 * Define this before including `agent-gtk.h` to one of the `AGENT_GTK_VERSION_*`
 * macros to get deprecation warnings only for API deprecated before it.
 */
#ifndef AGENT_GTK_VERSION_MIN_REQUIRED
# define AGENT_GTK_VERSION_MIN_REQUIRED (AGENT_GTK_VERSION_CUR_STABLE)
#endif

/**
 * AGENT_GTK_VERSION_MAX_ALLOWED:
 *
 * Define this before including `agent-gtk.h` to one of the `AGENT_GTK_VERSION_*`
 * macros to get warnings when using API newer than it.
 */
#ifndef AGENT_GTK_VERSION_MAX_ALLOWED
# define AGENT_GTK_VERSION_MAX_ALLOWED (AGENT_GTK_VERSION_CUR_STABLE)
#endif

#define AGENT_GTK_AVAILABLE_IN_ALL _AGENT_GTK_EXTERN

#if AGENT_GTK_VERSION_MAX_ALLOWED < AGENT_GTK_VERSION_0_1
# define AGENT_GTK_AVAILABLE_IN_0_1 AGENT_GTK_UNAVAILABLE(0, 1)
#else
# define AGENT_GTK_AVAILABLE_IN_0_1 _AGENT_GTK_EXTERN
#endif
