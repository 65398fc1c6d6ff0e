{{/* Chart name, used as app.kubernetes.io/name. */}}
{{- define "vp.name" -}}
{{- .Chart.Name | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{/* Name of one service's Deployment and Service: <release>-<service>. Takes (dict "root" $ "name" <service>). */}}
{{- define "vp.componentName" -}}
{{- printf "%s-%s" .root.Release.Name .name | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{/* Environment prefix of a service: playback-auth -> PLAYBACK_AUTH. */}}
{{- define "vp.envPrefix" -}}
{{- . | upper | replace "-" "_" -}}
{{- end -}}

{{- define "vp.configMapName" -}}
{{- printf "%s-config" .Release.Name | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{- define "vp.secretName" -}}
{{- .Values.config.existingSecret | default (printf "%s-secrets" .Release.Name | trunc 63 | trimSuffix "-") -}}
{{- end -}}

{{/* Labels on every object; takes (dict "root" $ "name" <service or "">). */}}
{{- define "vp.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .root.Chart.Name .root.Chart.Version | replace "+" "_" }}
app.kubernetes.io/managed-by: {{ .root.Release.Service }}
app.kubernetes.io/part-of: {{ include "vp.name" .root }}
app.kubernetes.io/version: {{ .root.Chart.AppVersion | quote }}
{{ include "vp.selectorLabels" . }}
{{- end -}}

{{- define "vp.selectorLabels" -}}
app.kubernetes.io/name: {{ include "vp.name" .root }}
app.kubernetes.io/instance: {{ .root.Release.Name }}
{{- if .name }}
app.kubernetes.io/component: {{ .name }}
{{- end }}
{{- end -}}

{{/* Image of one service: its own `image` override, else image.repository:image.tag. Takes (dict "root" $ "svc" <entry>). */}}
{{- define "vp.image" -}}
{{- if .svc.image -}}
{{- .svc.image -}}
{{- else -}}
{{- printf "%s:%v" .root.Values.image.repository (.root.Values.image.tag | default .root.Chart.AppVersion) -}}
{{- end -}}
{{- end -}}

{{/* Port of a named extra port ("http", "stream", "rtmp") of a service, for the *_PORT variables. */}}
{{- define "vp.namedPort" -}}
{{- $svc := index .root.Values.services .service | default dict -}}
{{- $ports := $svc.ports | default dict -}}
{{- index $ports .port | default .fallback -}}
{{- end -}}

{{/* Fails the render on settings the services would refuse at start-up. */}}
{{- define "vp.validate" -}}
{{- $c := .Values.config -}}
{{- if not $c.kafkaBrokers -}}
{{- fail "config.kafkaBrokers is required (host:port[,host:port...]): services run one per pod and share events through Kafka" -}}
{{- end -}}
{{- if and (not $c.databaseUrl) (not $c.existingSecret) -}}
{{- fail "config.databaseUrl is required (postgres://user:password@host:5432/db), or config.existingSecret holding DATABASE_URL" -}}
{{- end -}}
{{- if and (not $c.existingSecret) (ne (not $c.accessToken.id) (not $c.accessToken.secret)) -}}
{{- fail "config.accessToken.id and config.accessToken.secret must be set together" -}}
{{- end -}}
{{- if and (not $c.existingSecret) (ne (not $c.webhook.url) (not $c.webhook.secret)) -}}
{{- fail "config.webhook.url and config.webhook.secret must be set together" -}}
{{- end -}}
{{- if not $c.s3.endpoint -}}
{{- fail "config.s3.endpoint is required (http://minio:9000): the transcoder, playback-auth and assets run in separate pods and share the media through the object store" -}}
{{- end -}}
{{- if and $c.s3.endpoint (not $c.existingSecret) (or (not $c.s3.accessKey) (not $c.s3.secretKey)) -}}
{{- fail "config.s3.accessKey and config.s3.secretKey are required with config.s3.endpoint" -}}
{{- end -}}
{{- range $name, $svc := .Values.services -}}
{{- if and (ne $name "gateway") (not $svc.grpcPort) -}}
{{- fail (printf "services.%s.grpcPort is required" $name) -}}
{{- end -}}
{{- end -}}
{{- $_ := include "vp.icePorts" . -}}
{{- end -}}

{{/* How the spaces SFU's media reaches participants: services.spaces.media.expose, "none" when unset. */}}
{{- define "vp.mediaExpose" -}}
{{- $spaces := index .Values.services "spaces" | default dict -}}
{{- ($spaces.media | default dict).expose | default "none" -}}
{{- end -}}

{{/*
The spaces SFU's ICE ports (services.spaces.media.icePorts), space-separated, when its media is exposed
(else nothing); fails on settings the cluster or the SFU could not use. Each port is listed on the pod and
on the media Service: Kubernetes has no port ranges, hence the cap.
*/}}
{{- define "vp.icePorts" -}}
{{- range $name, $svc := .Values.services -}}
{{- if and (ne $name "spaces") (hasKey $svc "media") -}}
{{- fail (printf "services.%s.media: only the spaces service has an SFU (services.spaces.media)" $name) -}}
{{- end -}}
{{- end -}}
{{- $spaces := index .Values.services "spaces" | default dict -}}
{{- $media := $spaces.media | default dict -}}
{{- $expose := include "vp.mediaExpose" . -}}
{{- if not (has $expose (list "none" "hostNetwork" "LoadBalancer" "NodePort")) -}}
{{- fail (printf "services.spaces.media.expose must be none, hostNetwork, LoadBalancer or NodePort (got %q)" $expose) -}}
{{- end -}}
{{- if ne $expose "none" -}}
{{- $range := $media.icePorts | default "" | toString -}}
{{- if not (regexMatch "^[0-9]{1,5}-[0-9]{1,5}$" $range) -}}
{{- fail (printf "services.spaces.media.icePorts must be min-max, e.g. 40000-40099 (got %q)" $range) -}}
{{- end -}}
{{- $min := splitList "-" $range | first | atoi -}}
{{- $max := splitList "-" $range | last | atoi -}}
{{- if not (and (le 1024 $min) (lt $min $max) (le $max 65535)) -}}
{{- fail (printf "services.spaces.media.icePorts must be ports from 1024 to 65535, the first below the last (got %s)" $range) -}}
{{- end -}}
{{- $count := add (sub $max $min) 1 -}}
{{- if gt $count 200 -}}
{{- fail (printf "services.spaces.media.icePorts %s is %d ports, at most 200: the pod and the media Service list each port (Kubernetes has no port ranges)" $range $count) -}}
{{- end -}}
{{- if and (eq $expose "NodePort") (or (lt $min 30000) (gt $max 32767)) -}}
{{- fail (printf "services.spaces.media.icePorts %s must lie within 30000-32767 with expose NodePort: each port is its own nodePort (ICE announces the port the SFU binds), and nodePorts come from Kubernetes' NodePort range" $range) -}}
{{- end -}}
{{- if and (has $expose (list "LoadBalancer" "NodePort")) (not $media.addresses) -}}
{{- fail (printf "services.spaces.media.addresses is required with expose %s: the IP address(es) participants reach %s at, which the SFU announces as ICE candidates (it cannot know them itself)" $expose (ternary "the load balancer" "the node" (eq $expose "LoadBalancer"))) -}}
{{- end -}}
{{- $taken := dict -}}
{{- range $portName, $port := $spaces.ports -}}{{- $_ := set $taken (printf "%s port" $portName) $port -}}{{- end -}}
{{- with $spaces.grpcPort -}}{{- $_ := set $taken "grpc port" . -}}{{- end -}}
{{- if $.Values.metrics.enabled -}}{{- $_ := set $taken "metrics port" $.Values.metrics.port -}}{{- end -}}
{{- range $what, $port := $taken -}}
{{- if and (le $min (int $port)) (le (int $port) $max) -}}
{{- fail (printf "services.spaces.media.icePorts %s takes port %d, spaces' %s" $range (int $port) $what) -}}
{{- end -}}
{{- end -}}
{{- range $.Values.extraEnv -}}
{{- if has .name (list "SPACES_ICE_PORTS" "SPACES_ICE_ADDRESSES") -}}
{{- fail (printf "extraEnv sets %s: with services.spaces.media.expose %s the chart sets it (services.spaces.media.icePorts, addresses)" .name $expose) -}}
{{- end -}}
{{- end -}}
{{- untilStep $min (int (add1 $max)) 1 | join " " -}}
{{- end -}}
{{- end -}}

{{/*
The grant key: the configured one, else the one the release's Secret already holds (kept across
upgrades so grants in flight stay valid), else a new random one.
*/}}
{{- define "vp.grantSecret" -}}
{{- $c := .Values.config -}}
{{- if $c.playback.grantSecret -}}
{{- $c.playback.grantSecret -}}
{{- else -}}
{{- $existing := lookup "v1" "Secret" .Release.Namespace (include "vp.secretName" .) -}}
{{- if and $existing $existing.data (hasKey $existing.data "PLAYBACK_GRANT_SECRET") -}}
{{- index $existing.data "PLAYBACK_GRANT_SECRET" | b64dec -}}
{{- else -}}
{{- randAlphaNum 48 -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{/* "true" when an autoscaler (an HPA of autoscaling.<name>, or KEDA for the transcoder and the webhooks) sets the replica count. Takes (dict "root" $ "name" <service>). */}}
{{- define "vp.autoscaled" -}}
{{- if or (hasKey .root.Values.autoscaling .name) (and .root.Values.keda.enabled (has .name (list "transcoder" "webhooks"))) -}}true{{- end -}}
{{- end -}}
