"""Documentation-site generators: detection and resolution rules (see :mod:`.base`)."""

from murar.ingest.sites.base import FileClass, FileRole, PlainSite, Site, SiteConfig

__all__ = ["FileClass", "FileRole", "PlainSite", "Site", "SiteConfig"]
