-- The databases the services use; the services create their tables themselves
-- at start (docs/deploy.md). Run once, by the postgres image, on an empty volume.
CREATE DATABASE eo_order;
CREATE DATABASE eo_inventory;
CREATE DATABASE eo_payment;
CREATE DATABASE eo_notification;
CREATE DATABASE eo_payment_provider;
