// SPDX-License-Identifier: LGPL-2.1-or-later
// A map from namespace to the base URL of its documentation, for links
baseURLs = [
  [ 'GLib', 'https://docs.gtk.org/glib/' ],
  [ 'GObject', 'https://docs.gtk.org/gobject/' ],
  [ 'Gio', 'https://docs.gtk.org/gio/' ],
  [ 'Json', 'https://gnome.pages.gitlab.gnome.org/json-glib/' ],
]
